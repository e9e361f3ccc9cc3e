// A process connection's context: what its actor keeps, and a settled command's outcome.
import type { Socket } from 'node:net'
import type { Logger } from 'pino'
import type { ProcessKind } from '../protocol/bodies.ts'
import type { Effect } from '../protocol/effects.ts'
import type { Learnt } from '../protocol/release.ts'
import type { Result } from '../protocol/result.ts'
import type { ProcessView } from '../state/process-view.ts'
import type { CommandQueue } from './command-queue.ts'
import type { ReplyDeadline } from './reply-deadline.ts'

export type Input = {
  socket: Socket
  /** The port it came in on: a primary is probed with `status`, a secondary asked its client id. */
  role: 'primary' | 'secondary'
  replyTimeoutMs: number
  maxReplyBytes: number
  /** Commands allowed to wait (a request joining a queued read takes no place). */
  maxQueue: number
  log: Logger
}
export type Context = Input & {
  queue: CommandQueue // mutated in place: copying it on every command cost O(n) per event
  /** The deadline of the reply awaited now (handshake, command, late reply): one timer in all. */
  deadline: ReplyDeadline
  kind?: ProcessKind
  clientId?: number
  view?: ProcessView
  /** What the process has shown of its release (protocol/release.ts), once identified. */
  learnt?: Learnt
  /** A padded reply's length measured before the handshake was decoded. */
  frameBytes?: number
  closeReason?: string
  /** The command settled by the transition under way, for its listeners. */
  settled?: CommandDone
  /** Told each settled command, in or out of a transition (see `takeReply`): onCommandDone(). */
  doneListeners: Set<(done: CommandDone) => void>
}
/**
 * A command's outcome, for the logs, the event stream and the metrics: the request that sent it,
 * what it did (`reply`: the effect, or why it failed) and the view before and after.
 */
export type CommandDone = {
  type: 'commandDone'
  requestId: string | undefined
  line: string
  metric: string
  reply: Result<Effect>
  before: ProcessView
  after: ProcessView
  ms: number
}
