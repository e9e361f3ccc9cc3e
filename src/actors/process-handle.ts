// A process as one request holds it: found once, then asked on its connection of the moment.
import type { ProcessKind } from '../protocol/bodies.ts'
import type { Command } from '../protocol/command.ts'
import type { Capability, Caps } from '../protocol/release.ts'
import { ask, askStatus } from './ask.ts'
import { capsNow, describe, type ProcessDescription } from './describe.ts'
import type { JobOptions } from './job.ts'
import type { ProcessEntry, Registry } from './registry.ts'

/** The process a request addresses. Its command goes to its connection of the moment. */
export type ProcessHandle = {
  readonly kind: ProcessKind
  readonly clientId?: number
  describe(): ProcessDescription
  /** What it has shown of its release so far, with no read (undefined before its handshake). */
  shown(): Caps | undefined
  /**
   * What it has shown of its release, with `cap` decided (every capability without one). A
   * process that has not told yet (a vf before its first status, a padded reply not measured) is
   * read once first: a `status`, harmless, shared with any other read queued.
   */
  caps(cap?: Capability): Promise<Caps>
  /** Queues a command; settles with the decoded reply. */
  ask<T>(command: Command<T>): Promise<T>
}

/** A handle on a served process for one request (`options`: its id, whether its client left). */
export function processHandle(
  registry: Registry,
  found: ProcessEntry,
  options: JobOptions,
): ProcessHandle {
  const { kind, clientId } = found
  let entry = found
  // It may have reconnected since it was found (while the request body was read): the new
  // connection takes the command; if it is gone, that is the 404 it would be now.
  const connection = () => {
    if (entry.connection.getSnapshot().status !== 'active') entry = registry.find(kind, clientId)
    return entry.connection
  }
  const shown = () => capsNow(connection())
  // `clientId` set after: a conditional spread between fields is V8's slow path (per request).
  const handle: { -readonly [K in keyof ProcessHandle]: ProcessHandle[K] } = {
    kind,
    describe: () => describe(connection()),
    shown,
    async caps(cap) {
      const caps = shown()!
      if (caps.settled || (cap !== undefined && caps.has(cap))) return caps
      await askStatus(connection(), kind, options)
      return shown()!
    },
    ask: (command) => ask(connection(), command, options),
  }
  if (clientId !== undefined) handle.clientId = clientId
  return handle
}
