// A process as the rest of the controller holds it: ask, describe, close. The only window into
// its actor (its changes are heard on the registry's one stream).
import { ControllerError } from '../protocol/errors.ts'
import type { Command } from '../protocol/command.ts'
import { statusOf } from '../protocol/kinds/status.ts'
import { isSafeLine, isSafeLongLine } from '../protocol/line.ts'
import type { ProcessId } from '../protocol/process-id.ts'
import type { Capability, Caps } from '../protocol/release.ts'
import { capsNow, describe, type ProcessDescription } from './describe.ts'
import { createJob } from './job.ts'
import type { ProcessConnection } from './process-connection.ts'
import type { AskOptions, Cause } from './settled.ts'

/** A process: the one way to reach its actor. */
export type ProcessHandle = {
  readonly id: ProcessId
  /** Queues a command (an event for its actor); settles with the decoded reply. */
  ask<T>(command: Command<T>, options?: AskOptions): Promise<T>
  describe(): ProcessDescription
  /** What it has shown of its release so far, with no read (undefined before its handshake). */
  shown(): Caps | undefined
  /**
   * What it has shown of its release, with `cap` decided (every capability without one). A
   * process that has not told yet (a vf before its first status, a padded reply not measured) is
   * read once first: a `status`, harmless, shared with any other read queued.
   */
  caps(cap?: Capability, options?: AskOptions): Promise<Caps>
  /** Closes its connection (the process reconnects, as after any drop). */
  close(reason: string): void
}

/**
 * What a change to a process must wait for before it is queued (its restore, under way), or
 * undefined: set by what the controller remembers (src/remember/memory.ts).
 */
export type ChangeGate = (id: ProcessId, cause: Cause | undefined) => Promise<void> | undefined

/** The same handle, asking with these options unless others are given (a request's own). */
export const askingWith = (handle: ProcessHandle, options: AskOptions): ProcessHandle => ({
  ...handle,
  ask: (command, given) => handle.ask(command, given ?? options),
  caps: (cap, given) => handle.caps(cap, given ?? options),
})

/** Sends a command to one connection's actor. */
export function askOn<T>(
  connection: ProcessConnection,
  command: Command<T>,
  options?: AskOptions,
): Promise<T> {
  if (!(command.long ? isSafeLongLine(command.line) : isSafeLine(command.line)))
    return Promise.reject(
      new ControllerError('INVALID_REQUEST', 'refusing to send a malformed command'),
    )
  if (connection.getSnapshot().status !== 'active')
    return Promise.reject(new ControllerError('CONNECTION_CLOSED', 'the process has disconnected'))
  const { job, promise } = createJob(command, options)
  connection.send({ type: 'command', job })
  return promise
}

/** The handle of one identified connection: it answers for that connection only. */
export const connectionHandle = (connection: ProcessConnection, id: ProcessId): ProcessHandle =>
  handleOver(id, () => connection)

/**
 * A handle whose commands go to the connection `current()` names now (a process found for a
 * request may reconnect while its body is read: the new connection takes the command).
 */
export function handleOver(
  id: ProcessId,
  current: () => ProcessConnection,
  gate?: ChangeGate,
): ProcessHandle {
  const shown = () => capsNow(current())
  return {
    id,
    ask(command, options) {
      const wait = command.read ? undefined : gate?.(id, options?.cause)
      if (!wait) return askOn(current(), command, options)
      return wait.then(() => askOn(current(), command, options))
    },
    describe: () => describe(current()),
    shown,
    async caps(cap, options) {
      const caps = shown()!
      if (caps.settled || (cap !== undefined && caps.has(cap))) return caps
      await askOn(current(), statusOf(id.kind), options)
      return shown()!
    },
    close: (reason) => current().send({ type: 'close', reason }),
  }
}
