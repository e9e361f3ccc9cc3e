// What a process connection can do (its context, guards and actions); process-connection.ts says when.
import type { Socket } from 'node:net'
import type { Logger } from 'pino'
import { assign, emit, enqueueActions, setup, type AnyActorRef } from 'xstate'
import type { ErrorCode } from '../errors.ts'
import type { ProcessKind } from '../protocol/bodies.ts'
import type { Effect } from '../protocol/effects.ts'
import type { Identity } from '../protocol/handshake.ts'
import { eraLabel, firstLearnt, learn, type Learnt } from '../protocol/release.ts'
import type { Result } from '../protocol/result.ts'
import { emptyView, nextView, type ProcessView } from '../state/process-view.ts'
import { CommandQueue } from './command-queue.ts'
import { logCommand } from './command-log.ts'
import { answer, refuse, type Job } from './job.ts'
import { processLabel as label } from './label.ts'
import { nextJob } from './next-job.ts'
import type { ReplyDeadline } from './reply-deadline.ts'
import { socketLink, type LinkEvent } from './socket-link.ts'

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
  /** The command settled by the transition under way, for its `commandDone`. */
  settled?: CommandDone
}
type Events =
  | { type: 'command'; job: Job }
  | LinkEvent
  | { type: 'handshake'; result: Result<Identity> }
  | { type: 'close'; reason: string }
  /** The reply awaited now is overdue (see `deadline`). */
  | { type: 'replyTimeout' }
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
type Emitted =
  | { type: 'identified'; kind: ProcessKind; clientId?: number; era?: '18.11' | '2020' }
  | CommandDone
  /** Commands that were never written when the connection closed: they may wait for the process. */
  | { type: 'unsent'; jobs: Job[] }

/** Why a command on this connection was not answered: it closed. */
export const closedMessage = (context: Context) =>
  `connection to ${label(context)} closed: ${context.closeReason ?? 'unknown reason'}`

/**
 * Takes a command into the queue: a read joins the same read waiting at the tail; past
 * `maxQueue` the command is refused at once.
 */
export function admit(context: Context, job: Job): void {
  const { queue, maxQueue } = context
  if (queue.joins(job) || queue.length < maxQueue) return queue.push(job)
  const process = label(context)
  refuse(job, `${process} has ${maxQueue} commands waiting: try again later`, 'QUEUE_FULL')
}

/**
 * Writes the next command someone still waits for, refusing any that would hang the process (see
 * next-job.ts), unless one is in flight. Straight to the link: sendTo's deferred delivery and
 * enqueueActions cost 2.5 KB of garbage per command; the write only starts I/O, so nothing
 * re-enters the actor.
 */
export function writeNext(context: Context, link: AnyActorRef | undefined): void {
  if (context.queue.current) return
  const job = nextJob(context.queue, context.view)
  if (!job) return
  context.deadline.arm(context.replyTimeoutMs)
  context.queue.current = { job, sentAt: performance.now() }
  link?.send({ type: 'write', line: job.line })
}

/**
 * Answers the command in flight and moves the view (and what the process has shown) on: the
 * outcome to emit, or undefined when nothing was in flight.
 */
function settle(context: Context, reply: Result<Buffer>): CommandDone | undefined {
  const { queue, view, log, learnt } = context
  const { current } = queue
  if (!current || !view) return undefined
  queue.current = undefined
  context.deadline.disarm()
  const { job, sentAt } = current
  const result = answer(job, reply)
  let after = view
  if (result.ok) {
    const next = nextView(view, result.value, Date.now())
    if (next.ok) after = next.value
    else log.error({ process: label(context), command: job.line }, next.message)
  }
  logCommand(log, context, job, result)
  if (result.ok && 'shows' in result.value && learnt && result.value.shows)
    context.learnt = learn(learnt, result.value.shows)
  context.view = after
  const { line, metric, requestId } = job
  const ms = performance.now() - sentAt
  return { type: 'commandDone', requestId, line, metric, reply: result, before: view, after, ms }
}

/** The context, events, guards and actions of a process connection. */
export const connectionSetup = setup({
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- xstate's typing idiom
  types: {} as { input: Input; context: Context; events: Events; emitted: Emitted },
  actors: { socketLink },
  guards: {
    nothingSent: ({ context }) => context.queue.current === undefined,
    currentCloses: ({ context }) => context.queue.current?.job.closes === true,
  },
  actions: {
    queue: ({ context }, job: Job) => admit(context, job),
    armDeadline: ({ context }) => context.deadline.arm(context.replyTimeoutMs),
    disarmDeadline: ({ context }) => context.deadline.disarm(),
    stopDeadline: ({ context }) => context.deadline.stop(),
    sendNext: ({ context, self }) => writeNext(context, self.getSnapshot().children.link),
    /**
     * Settles the command in flight with its reply (or why none came), changing the context in
     * place (as `queue` is): an `assign` copied the context and its snapshot per command. The
     * outcome waits in `settled` for `emitSettled`, the transition's next action.
     */
    settle: ({ context }, reply: Result<Buffer>) => {
      context.settled = settle(context, reply)
    },
    /** Emits the command just settled (after `settle`, on a reply to the command in flight). */
    emitSettled: emit(({ context }) => context.settled!),
    /** Settles and emits what is in flight, if anything (a timeout, a close: not per command). */
    settleAndEmit: enqueueActions(({ context, enqueue }, reply: Result<Buffer>) => {
      const done = settle(context, reply)
      if (done) enqueue.emit(done)
    }),
    /** Fails every queued command without sending it. */
    failQueue: ({ context }, reply: { code: ErrorCode; message: string }) => {
      for (const job of context.queue.drain()) refuse(job, reply.message, reply.code)
    },
    /** Hands the commands never written to whoever can send them on the process's next connection. */
    handOver: enqueueActions(({ context, enqueue }) => {
      const jobs = context.queue.drain()
      if (jobs.length === 0) return
      if (context.kind === undefined) {
        for (const job of jobs) refuse(job, closedMessage(context), 'CONNECTION_CLOSED')
      } else {
        enqueue.emit({ type: 'unsent', jobs })
      }
    }),
    setCloseReason: assign({ closeReason: (_, reason: string) => reason }),
    /** A handshake that named the process: who it is and what it showed of its release. */
    identify: enqueueActions(({ context, enqueue }, result: Result<Identity>) => {
      if (!result.ok) return
      const { kind, clientId, shows } = result.value
      let learnt = firstLearnt(kind, shows)
      if (context.frameBytes) learnt = learn(learnt, { frameBytes: context.frameBytes })
      enqueue.assign({ kind, clientId, view: emptyView(kind), learnt })
      const era = eraLabel(learnt)
      const id = clientId === undefined ? {} : { clientId }
      enqueue.emit({ type: 'identified', kind, ...id, ...(era === 'unknown' ? {} : { era }) })
    }),
  },
})
