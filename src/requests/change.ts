// One change asked of one process, the same way for a client's request and a plan's step: its
// release first (405), then the component it names and its body (400 naming the field), then the
// checks that need the host, then its command.
import type * as v from 'valibot'
import { askingWith, type ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import type { AskOptions } from '../actors/settled.ts'
import { PRIMARY, type ProcessId } from '../protocol/process-id.ts'
import type { Capability, Caps } from '../protocol/release.ts'
import { ComponentName, portNeeds, type PortUse } from '../protocol/tokens.ts'
import { bodyOf, check, invalid } from './check.ts'
import type { Has } from './schemas.ts'

/** The process a change is asked of, and the primary (whose rings a port may need), both asked for one cause. */
export type Asking = {
  readonly process: ProcessHandle
  /** The primary, or undefined when none is connected. */
  primary(): ProcessHandle | undefined
}

/** The process `id` as a request or a step asks it (404 in SPP's words when it is not connected). */
export function askingOf(registry: Registry, id: ProcessId, options: AskOptions): Asking {
  return {
    process: askingWith(registry.find(id), options),
    primary: () =>
      registry.has(PRIMARY)
        ? askingWith(registry.find(PRIMARY), { cause: options.cause })
        : undefined,
  }
}

/** What a change carries besides its process: the component its path names, and its body. */
export type ChangeInput = {
  component?: string
  /** Its body, read only once the change gets to it (a route reads it from its client then). */
  body: () => Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined
}

/** A change a process may be asked: what the table holds for a kind and an action. */
export type Change = {
  /** The plan's words for what it does (`port.add`, `port.del`): its body's `action` picks one. */
  readonly actions: readonly string[]
  /** The grammar of its body, by what the process may have (for OpenAPI: every release's). */
  readonly body?: (has?: Has) => v.GenericSchema
  /**
   * Checks and asks it; resolves once the process has answered. `expected`: the action a step
   * says it is, which its body must be.
   */
  ask(asking: Asking, input: ChangeInput, expected?: string): Promise<void>
}

/** How a change is checked and asked, typed by its body `B`. */
export type ChangeSpec<B> = {
  actions: readonly string[]
  /** Checked first: 405 unless the process's release has the change. */
  allowed?: (process: ProcessHandle) => Promise<void>
  /** Its path names a component (`{name}`), checked before the body. */
  component?: boolean
  body?: (has?: Has) => v.GenericSchema<unknown, B>
  /** The ports whose grammar depends on the release (a memif port, a queue of a phy port). */
  ports?: (body: B) => [PortUse, string][]
  /** The action its body asks for. */
  action: (body: B) => string
  /** The checks that need the host or the process's view, then its command. */
  send: (asking: Asking, body: B, component: string) => Promise<unknown>
}

/** A change of the table, from its spec. */
export function change<B = undefined>(spec: ChangeSpec<B>): Change {
  return {
    actions: spec.actions,
    body: spec.body,
    async ask(asking, input, expected) {
      await spec.allowed?.(asking.process)
      const name = spec.component ? check(ComponentName, input.component, 'name') : ''
      const body = spec.body
        ? await parseFor(asking.process, spec.body, bodyOf(await input.body()), spec.ports)
        : (undefined as B)
      if (expected !== undefined && spec.action(body) !== expected)
        throw invalid(`a step of ${expected} whose body asks for ${spec.action(body)}`)
      await spec.send(asking, body, name)
    },
  }
}

/** A capability is possible for a process until it has shown whether it has it. */
const possibleOf = (caps: Caps | undefined) => (cap: Capability) =>
  !caps || !caps.settled || caps.has(cap)
// One function per caps (a process's caps are made once per status that taught them): the body
// schemas are cached by it, so that a request finds its grammar without working out its key.
const possibles = new WeakMap<Caps, (cap: Capability) => boolean>()
const unknown = possibleOf(undefined)
const possible = (caps: Caps | undefined) => {
  if (!caps) return unknown
  let has = possibles.get(caps)
  if (!has) possibles.set(caps, (has = possibleOf(caps)))
  return has
}

/**
 * A body checked against its grammar. One whose grammar depends on the process's release (memif
 * ports, queues of phy ports) is checked against every release the process may still be, nothing
 * sent; then, where a value needs a capability the process has not shown yet, once more against
 * its own release, after one status read if it has not told (a 400 names the field either way).
 */
async function parseFor<B>(
  process: ProcessHandle,
  schemaFor: (has?: Has) => v.GenericSchema<unknown, B>,
  raw: Record<string, unknown>,
  ports?: (body: B) => [PortUse, string][],
): Promise<B> {
  if (!ports) return check(schemaFor(), raw)
  const caps = process.shown() // not describe(): a whole description per request
  const body = check(schemaFor(possible(caps)), raw)
  if (!caps || caps.settled) return body
  const needs = ports(body).flatMap(([use, port]) => portNeeds(use, port) ?? [])
  if (needs.length === 0) return body
  let known = caps
  for (const cap of needs) known = await process.caps(cap)
  return check(schemaFor(possible(known)), raw)
}
