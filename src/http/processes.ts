// How a handler reaches the process its request addresses: find it once (404), read its body in
// the grammar of its release (400), then ask it.
import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import type * as v from 'valibot'
import { causeOf } from './record-changes.ts'
import { askingWith, type ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import type { StatusReads } from '../observe/status-reads.ts'
import type { ProcessKind } from '../protocol/bodies.ts'
import type { StatusBody } from '../protocol/kinds/status.ts'
import { PRIMARY, processId, type ProcessId } from '../protocol/process-id.ts'
import type { Capability, Caps } from '../protocol/release.ts'
import { portNeeds, type PortUse } from '../protocol/tokens.ts'
import { check, readRecord } from './validate.ts'

/**
 * Whether the HTTP client went away before its answer was sent. Asked only when its command is
 * about to be written: an AbortController and a 'close' listener per request cost more.
 */
function clientGone(c: Context): (() => boolean) | undefined {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
  if (!outgoing) return undefined
  return () => outgoing.destroyed && !outgoing.writableFinished
}

/** The header that tells how old (ms) the status read an answer shows is: the oldest, if several. */
export const STATUS_AGE = 'X-Status-Age-Ms'

/** Sets the age header of an answer that shows reads answered at `readAt` (the reads' clock). */
export const tellAge = (c: Context, reads: StatusReads, readAt: number) =>
  c.header(STATUS_AGE, String(Math.max(0, Math.round(reads.now() - readAt))))

/** The primary, or the secondary of this kind the request's `client_id` names. */
const idOf = (c: Context, kind: ProcessKind): ProcessId =>
  kind === 'primary' ? PRIMARY : processId(kind, Number(c.req.param('client_id')))

/** Finding processes on behalf of requests: each command is caused by its request. */
export function processesOf(registry: Registry, reads: StatusReads) {
  return {
    /** The primary, or the secondary of this kind the request's `client_id` names (404 if none). */
    find(c: Context, kind: ProcessKind): ProcessHandle {
      return askingWith(registry.find(idOf(c, kind)), { cause: causeOf(c), left: clientGone(c) })
    },
    /**
     * What the process's own GET answers (404 if there is none): its status, read at most
     * --status-max-age ago and shared with every other reader of it; the answer tells its age.
     */
    async status<K extends ProcessKind>(c: Context, kind: K): Promise<StatusBody[K]> {
      const read = await reads.read(registry.find(idOf(c, kind)), causeOf(c))
      tellAge(c, reads, read.at)
      return read.body as StatusBody[K]
    },
  }
}

export type Processes = ReturnType<typeof processesOf>

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
 * A body whose grammar depends on the process's release (memif ports, queues of phy ports): read
 * and checked against every release the process may still be, nothing sent; then, where a value
 * needs a capability the process has not shown yet, once more against its own release, after one
 * status read if it has not told (a 400 names the field either way).
 */
export async function readFor<S extends v.GenericSchema>(
  c: Context,
  process: ProcessHandle,
  schemaFor: (has: (cap: Capability) => boolean) => S,
  ports: (body: v.InferOutput<S>) => [PortUse, string][],
): Promise<v.InferOutput<S>> {
  const raw = await readRecord(c)
  const caps = process.shown() // not describe(): a whole description per request
  const body = check(schemaFor(possible(caps)), raw)
  if (!caps || caps.settled) return body
  const needs = ports(body).flatMap(([use, port]) => portNeeds(use, port) ?? [])
  if (needs.length === 0) return body
  let known = caps
  for (const cap of needs) known = await process.caps(cap)
  return check(schemaFor(possible(known)), raw)
}
