// What the rest of the controller may know of a process's commands: who caused one, how a request
// asks, and what each settled command did (the change stream's element).
import type { Change, Effect } from '../protocol/effects.ts'
import type { ProcessId } from '../protocol/process-id.ts'
import type { Result } from '../protocol/result.ts'
import type { ProcessView } from '../state/process-view.ts'

/**
 * Who caused a command: the request that asked for it (its id) and who made that request, as the
 * journal and the log lines name them. `restoring`: a restore's own step, which brings a process
 * back to what is remembered and so leaves what is remembered as it is.
 */
export type Cause = {
  readonly requestId: string
  readonly by: string
  readonly restoring?: boolean
}

/** What a request tells its command: why it is sent, and how to see that its client has gone. */
export type AskOptions = {
  cause?: Cause
  /** Aborts when the client gives up: a command not yet written is then never sent. */
  signal?: AbortSignal
  /** Whether the client has gone, asked only when the command is about to be written. */
  left?: () => boolean
}

/**
 * A command the process answered, or that ended without an answer: what it was, what it did to
 * the view, who caused it. Emitted once per command; the change stream is made of these.
 */
export type Settled = {
  process: ProcessId
  line: string
  metric: string
  read: boolean
  /** For a change: what it was to do (its effect when it succeeded). */
  change: Change | undefined
  outcome: Result<Effect>
  before: ProcessView
  after: ProcessView
  /** From written to answered (or failed), and from queued to answered, in ms. */
  ms: number
  totalMs: number
  /** Requests that shared this command beyond the first (a read joined). */
  joined: number
  cause: Cause | undefined
}
