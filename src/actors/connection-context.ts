// A process connection's context: what its actor keeps.
import type { Socket } from 'node:net'
import type { Logger } from 'pino'
import type { ProcessKind } from '../protocol/bodies.ts'
import type { Learnt } from '../protocol/release.ts'
import type { ProcessView } from '../state/process-view.ts'
import type { CommandQueue } from './command-queue.ts'
import type { DoneListeners } from './done-listeners.ts'
import type { ReplyDeadline } from './reply-deadline.ts'

export type { CommandDone } from './done-listeners.ts'

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
  /** Told each settled command, in or out of a transition (see `takeReply`): onCommandDone(). */
  done: DoneListeners
}
