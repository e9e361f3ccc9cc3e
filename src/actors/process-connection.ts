// One connected SPP process as an xstate actor: owns its socket, identifies the process, queues
// its commands with one in flight, and keeps its view; every input is an event, every change of
// context an `assign`.
import type { Socket } from 'node:net'
import type { Logger } from 'pino'
import { assign, enqueueActions, sendTo, setup, type ActorRefFrom } from 'xstate'
import type { ErrorCode } from '../protocol/errors.ts'
import { HANDSHAKES, type Identity } from '../protocol/handshake.ts'
import { labelOf, processId, type ProcessId } from '../protocol/process-id.ts'
import { eraLabel, firstLearnt, learn, type Learnt } from '../protocol/release.ts'
import { fail } from '../protocol/result.ts'
import { emptyView, type ProcessView } from '../state/process-view.ts'
import { emptyQueue, joins, jobsOf, pushed, type CommandQueue } from './command-queue.ts'
import { answer, readReply, refuse, refuseAll, type Job, type Reply } from './job.ts'
import { settling } from './reply-outcome.ts'
import type { Settled } from './settled.ts'
import { nextJob } from './next-job.ts'
import { socketLink, type Answer, type LinkEvent, type Write } from './socket-link.ts'

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
  queue: CommandQueue
  /** The command written whose reply is awaited, and when it was written. */
  inFlight?: { job: Job; sentAt: number }
  /** Who the process is, once its handshake said. */
  id?: ProcessId
  view?: ProcessView
  /** What the process has shown of its release (protocol/release.ts), once identified. */
  learnt?: Learnt
  /** A padded reply's length measured before the handshake was decoded. */
  frameBytes?: number
  closeReason?: string
}

type Events = { type: 'command'; job: Job } | LinkEvent | { type: 'close'; reason: string }
type Emitted =
  | { type: 'identified'; id: ProcessId; era?: '18.11' | '2020' }
  /** Commands never written when the connection closed: they may wait for the process. */
  | { type: 'unsent'; id: ProcessId; jobs: Job[] }
  | { type: 'settled'; settled: Settled }

/** Why a command on this connection was not answered: it closed. */
const closedMessage = (context: Context) =>
  `connection to ${labelOf(context.id)} closed: ${context.closeReason ?? 'unknown reason'}`

/**
 * The line that asks a new connection who it is, and its answer read as the handshake (read by
 * the link, outside the machine: a decoder that throws is a failed handshake, never an exception
 * on the socket's data).
 */
function handshakeOf(role: Input['role']): Write {
  const { line, decode } = HANDSHAKES[role]
  const identify = (frame: Buffer) => {
    try {
      return decode(frame)
    } catch (error) {
      return fail<Identity>(`decoding it failed: ${(error as Error).message}`, 'INTERNAL')
    }
  }
  return {
    type: 'write',
    line,
    read: (frame) => ({ type: 'handshake', identity: identify(frame) }),
  }
}

/** The queue with `job` in it (a read joining the read at its tail), or undefined when it is full. */
const admitted = ({ queue, maxQueue }: Context, job: Job): CommandQueue | undefined =>
  queue.length < maxQueue || joins(queue, job) ? pushed(queue, job) : undefined

const queueFull = (context: Context) =>
  `${labelOf(context.id)} has ${context.maxQueue} commands waiting: try again later`

/** A command's line, and its reply read once with the command's own decoder. */
const writeOf = (job: Job): Write => ({
  type: 'write',
  line: job.line,
  read: (frame): Answer => ({ type: 'reply', reply: readReply(job, frame) }),
})

/** One connected SPP process: identifies it, queues its commands and keeps one in flight. */
export const processConnection = setup({
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- xstate's typing idiom
  types: {} as { input: Input; context: Context; events: Events; emitted: Emitted },
  actors: { socketLink },
  delays: { replyTimeout: ({ context }) => context.replyTimeoutMs },
  // Guards only read the event and the context: what they choose between was worked out once,
  // by the link (a reply decoded) or by an action (the next command, written or not).
  guards: {
    handshakeFailed: ({ event }) => event.type === 'handshake' && !event.identity.ok,
    /** Commands wait: the next is written in this step (awaitingReply), unless none can be. */
    commandsWaiting: ({ context }) => context.queue.length > 0,
    /** Nothing was written after all (each waiting command refused, or its client gone). */
    nothingInFlight: ({ context }) => context.inFlight === undefined,
    closesOnReply: ({ context }) => context.inFlight?.job.closes === true,
  },
  actions: {
    warn: ({ context }, message: string) =>
      context.log.warn({ process: labelOf(context.id) }, message),
    setCloseReason: assign({ closeReason: (_, reason: string) => reason }),
    /** A command into the queue (a read joining the read at its tail); past `maxQueue`, refused. */
    queue: enqueueActions(({ context, enqueue }, job: Job) => {
      const queue = admitted(context, job)
      if (queue) enqueue.assign({ queue })
      else enqueue(() => refuse(job, queueFull(context), 'QUEUE_FULL'))
    }),
    /**
     * Writes the next command someone waits for, refusing those that would hurt the process; with
     * a command just come (`job`), that command is queued first, in the same change.
     */
    writeNext: enqueueActions(({ context, enqueue }, job: Job | undefined) => {
      const queue = job ? admitted(context, job) : context.queue
      if (!queue) return enqueue(() => refuse(job!, queueFull(context), 'QUEUE_FULL'))
      if (queue.length === 0) return
      const next = nextJob(queue, context.view)
      const sentAt = performance.now()
      enqueue.assign({
        queue: next.queue,
        inFlight: next.send && { job: next.send, sentAt },
      })
      for (const { job, message } of next.refused)
        enqueue(() => refuse(job, message, 'INVALID_REQUEST'))
      if (next.send) enqueue.sendTo('link', writeOf(next.send))
    }),
    /**
     * Settles the command in flight with its reply (or why none came): the view and what the
     * process has shown move on, its requests are answered, and the outcome is emitted.
     */
    settle: enqueueActions(({ context, enqueue }, reply: Reply) => {
      const { inFlight, view, id } = context
      if (!inFlight || !view || !id) return
      const { job, sentAt } = inFlight
      const { outcome, after, learnt, fault } = settling(view, context.learnt, reply)
      if (fault) context.log.error({ process: labelOf(id), command: job.line }, fault)
      enqueue.assign({ inFlight: undefined, view: after, learnt })
      enqueue(() => answer(job, reply))
      const now = performance.now()
      const settled: Settled = {
        process: id,
        line: job.line,
        metric: job.metric,
        read: job.read,
        change: job.change,
        outcome,
        before: view,
        after,
        ms: now - sentAt,
        totalMs: now - job.queuedAt,
        joined: job.waiters.length - 1,
        cause: job.cause,
      }
      enqueue.emit({ type: 'settled', settled })
    }),
    /** Fails every queued command without sending it. */
    failQueue: enqueueActions(
      ({ context, enqueue }, params: { code: ErrorCode; message: string }) => {
        const jobs = jobsOf(context.queue)
        enqueue.assign({ queue: emptyQueue })
        enqueue(() => refuseAll(jobs, params.message, params.code))
      },
    ),
    /** Hands the commands never written to whoever can send them on the process's next connection. */
    handOver: enqueueActions(({ context, enqueue }) => {
      const jobs = jobsOf(context.queue)
      enqueue.assign({ queue: emptyQueue })
      if (jobs.length === 0) return
      if (context.id === undefined) {
        const message = closedMessage(context)
        enqueue(() => refuseAll(jobs, message, 'CONNECTION_CLOSED'))
      } else enqueue.emit({ type: 'unsent', id: context.id, jobs })
    }),
    /** A handshake that named the process: who it is and what it showed of its release. */
    identify: enqueueActions(({ context, enqueue, event }) => {
      if (event.type !== 'handshake' || !event.identity.ok) return
      const { kind, clientId, shows } = event.identity.value
      const id = processId(kind, clientId)
      let learnt = firstLearnt(kind, shows)
      if (context.frameBytes) learnt = learn(learnt, { frameBytes: context.frameBytes })
      enqueue.assign({ id, view: emptyView(kind), learnt })
      const era = eraLabel(learnt)
      enqueue.emit({ type: 'identified', id, ...(era === 'unknown' ? {} : { era }) })
    }),
  },
}).createMachine({
  id: 'processConnection',
  context: ({ input }) => ({ ...input, queue: emptyQueue }),
  invoke: {
    id: 'link',
    src: 'socketLink',
    input: ({ context }) => ({
      socket: context.socket,
      framing: context.role === 'primary' ? 'padded' : 'detect',
      maxReplyBytes: context.maxReplyBytes,
    }),
  },
  on: {
    command: { actions: { type: 'queue', params: ({ event }) => event.job } },
    'link.frameBytes': {
      actions: assign(({ context: { learnt }, event: { bytes } }) =>
        learnt ? { learnt: learn(learnt, { frameBytes: bytes }) } : { frameBytes: bytes },
      ),
    },
    'link.closed': {
      target: '.closed',
      actions: { type: 'setCloseReason', params: ({ event }) => event.reason },
    },
    close: {
      target: '.closed',
      actions: { type: 'setCloseReason', params: ({ event }) => event.reason },
    },
  },
  initial: 'identifying',
  states: {
    // Asked who it is (a secondary) or probed with `status` (the primary); commands wait.
    identifying: {
      entry: sendTo('link', ({ context }) => handshakeOf(context.role)),
      after: {
        replyTimeout: {
          target: 'closed',
          actions: {
            type: 'setCloseReason',
            params: ({ context }) => `no answer to ${HANDSHAKES[context.role].line}`,
          },
        },
      },
      on: {
        handshake: [
          {
            guard: 'handshakeFailed',
            target: 'closed',
            actions: {
              type: 'setCloseReason',
              params: ({ event }) =>
                `handshake failed: ${event.identity.ok ? '' : event.identity.message}`,
            },
          },
          { guard: 'commandsWaiting', target: 'awaitingReply', actions: ['identify', 'writeNext'] },
          { target: 'ready', actions: 'identify' },
        ],
      },
    },
    // Identified, nothing in flight: a command is written as it comes.
    ready: {
      on: {
        // Queued and written in one change. Refused or left (a hazard, a client gone, a full
        // queue): nothing is written, and awaitingReply hands back at once.
        command: {
          target: 'awaitingReply',
          actions: { type: 'writeNext', params: ({ event }) => event.job },
        },
        'link.unsolicited': {
          target: 'closed',
          actions: { type: 'setCloseReason', params: 'protocol error: reply without a command' },
        },
      },
    },
    // One command written, its reply awaited; the others queued.
    awaitingReply: {
      always: { guard: 'nothingInFlight', target: 'ready' },
      after: {
        replyTimeout: {
          target: 'discardingLateReply',
          actions: [
            {
              type: 'settle',
              params: ({ context }) =>
                fail(`no reply within ${context.replyTimeoutMs} ms`, 'REPLY_TIMEOUT'),
            },
            {
              type: 'failQueue',
              params: ({ context }) => ({
                code: 'PROCESS_UNRESPONSIVE' as const,
                message: `not sent: ${labelOf(context.id)} did not answer the command before it`,
              }),
            },
          ],
        },
      },
      on: {
        reply: [
          {
            guard: 'closesOnReply',
            target: 'closed',
            actions: [
              { type: 'settle', params: ({ event }) => event.reply },
              { type: 'setCloseReason', params: 'exited on request' },
            ],
          },
          {
            // The next command goes at once; its own deadline starts (the state is entered again).
            guard: 'commandsWaiting',
            target: 'awaitingReply',
            reenter: true,
            actions: [{ type: 'settle', params: ({ event }) => event.reply }, 'writeNext'],
          },
          { target: 'ready', actions: { type: 'settle', params: ({ event }) => event.reply } },
        ],
      },
    },
    // The late reply must still be read, or it would be taken as the answer to the next command.
    // If it never comes the process is hung or lost a reply: drop it, so it reconnects on a clean
    // channel; what was queued meanwhile waits for it (handOver).
    discardingLateReply: {
      after: {
        replyTimeout: {
          target: 'closed',
          actions: { type: 'setCloseReason', params: 'no reply to a timed-out command' },
        },
      },
      on: {
        reply: [
          {
            guard: 'commandsWaiting',
            target: 'awaitingReply',
            actions: [{ type: 'warn', params: 'late reply discarded' }, 'writeNext'],
          },
          { target: 'ready', actions: { type: 'warn', params: 'late reply discarded' } },
        ],
      },
    },
    closed: {
      type: 'final', // stops the link (destroying the socket) and completes the actor
      entry: [
        {
          type: 'settle',
          params: ({ context }) => fail(closedMessage(context), 'CONNECTION_CLOSED'),
        },
        'handOver',
      ],
    },
  },
})

export type ProcessConnection = ActorRefFrom<typeof processConnection>
