// One connected SPP process as an xstate actor: owns its socket, identifies the process, queues
// its commands with one in flight, and keeps its view; every input is an event, every change of
// context an `assign`.
import type { Socket } from 'node:net'
import type { Logger } from 'pino'
import { assign, enqueueActions, sendTo, setup, type ActorRefFrom } from 'xstate'
import type { ErrorCode } from '../protocol/errors.ts'
import { HANDSHAKES } from '../protocol/handshake.ts'
import { idText, processId, type ProcessId } from '../protocol/process-id.ts'
import { eraLabel, firstLearnt, learn, type Learnt } from '../protocol/release.ts'
import { fail } from '../protocol/result.ts'
import { emptyView, type ProcessView } from '../state/process-view.ts'
import { emptyQueue, joins, jobsOf, pushed, type CommandQueue } from './command-queue.ts'
import { answer, refuse, type Job, type Outcome } from './job.ts'
import { settling } from './reply-outcome.ts'
import type { Settled } from './settled.ts'
import { nextJob } from './next-job.ts'
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

/** Answers requests that get no command: the reason, never sent. */
const refuseAll = (jobs: readonly Job[], message: string, code: ErrorCode) => {
  for (const job of jobs) refuse(job, message, code)
}

const label = (context: Context) => (context.id ? idText(context.id) : 'unidentified')

/** Why a command on this connection was not answered: it closed. */
const closedMessage = (context: Context) =>
  `connection to ${label(context)} closed: ${context.closeReason ?? 'unknown reason'}`

/** The queue with a new command in it, or why it is refused (past `maxQueue`). */
function admitted(context: Context, job: Job): { queue: CommandQueue } | { refused: string } {
  const { queue, maxQueue } = context
  if (joins(queue, job) || queue.length < maxQueue) return { queue: pushed(queue, job) }
  return { refused: `${label(context)} has ${maxQueue} commands waiting: try again later` }
}

/** Whether a command would be written with this queue and view (none refused or left). */
const writes = (queue: CommandQueue, view: Context['view']) =>
  queue.length > 0 && nextJob(queue, view).send !== undefined

const frameOf = (event: Events) => (event.type === 'link.frame' ? event.frame : undefined)

/** One connected SPP process: identifies it, queues its commands and keeps one in flight. */
export const processConnection = setup({
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- xstate's typing idiom
  types: {} as { input: Input; context: Context; events: Events; emitted: Emitted },
  actors: { socketLink },
  delays: { replyTimeout: ({ context }) => context.replyTimeoutMs },
  guards: {
    handshakeAnswered: ({ context, event }) =>
      event.type === 'link.frame' && HANDSHAKES[context.role].decode(event.frame).ok,
    /** A command arriving at a connection with none in flight would be written at once. */
    writesNew: ({ context, event }) => {
      if (event.type !== 'command') return false
      const queue = admitted(context, event.job)
      return 'queue' in queue && writes(queue.queue, context.view)
    },
    /** Once the reply settles the command in flight, another would be written. */
    writesAfterReply: ({ context, event }) => {
      const frame = frameOf(event)
      const settled = frame && settling(context, { ok: true, value: frame })
      return writes(context.queue, settled ? settled.after : context.view)
    },
    /** Once the handshake names the process, what was queued meanwhile would be written. */
    writesAfterHandshake: ({ context, event }) => {
      const frame = frameOf(event)
      const identity = frame && HANDSHAKES[context.role].decode(frame)
      return !!identity?.ok && writes(context.queue, emptyView(identity.value.kind))
    },
    /** What was queued would be written now. */
    writesQueued: ({ context }) => writes(context.queue, context.view),
    closesOnReply: ({ context }) => context.inFlight?.job.closes === true,
  },
  actions: {
    warn: ({ context }, message: string) => context.log.warn({ process: label(context) }, message),
    setCloseReason: assign({ closeReason: (_, reason: string) => reason }),
    /** A command into the queue (a read joining the read at its tail); past `maxQueue`, refused. */
    queue: enqueueActions(({ context, enqueue }, job: Job) => {
      const queue = admitted(context, job)
      if ('queue' in queue) enqueue.assign(queue)
      else enqueue(() => refuse(job, queue.refused, 'QUEUE_FULL'))
    }),
    /** Writes the next command someone waits for, refusing those that would hurt the process. */
    writeNext: enqueueActions(({ context, enqueue }) => {
      if (context.queue.length === 0) return
      const next = nextJob(context.queue, context.view)
      const sentAt = performance.now()
      enqueue.assign({
        queue: next.queue,
        inFlight: next.send && { job: next.send, sentAt },
      })
      for (const { job, message } of next.refused)
        enqueue(() => refuse(job, message, 'INVALID_REQUEST'))
      if (next.send) enqueue.sendTo('link', { type: 'write', line: next.send.line })
    }),
    /**
     * Settles the command in flight with its reply (or why none came): the view and what the
     * process has shown move on, its requests are answered, and the outcome is emitted.
     */
    settle: enqueueActions(({ context, enqueue }, reply: Outcome) => {
      const { inFlight, view, id } = context
      const settling_ = settling(context, reply)
      if (!inFlight || !view || !id || !settling_) return
      const { job, sentAt } = inFlight
      const { outcome, after, learnt, fault } = settling_
      if (fault) context.log.error({ process: idText(id), command: job.line }, fault)
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
    identify: enqueueActions(({ context, enqueue }, frame: Buffer) => {
      const result = HANDSHAKES[context.role].decode(frame)
      if (!result.ok) return
      const { kind, clientId, shows } = result.value
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
      entry: sendTo('link', ({ context }) => ({
        type: 'write' as const,
        line: HANDSHAKES[context.role].line,
      })),
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
        'link.frame': [
          {
            guard: 'writesAfterHandshake',
            target: 'awaitingReply',
            actions: [{ type: 'identify', params: ({ event }) => event.frame }, 'writeNext'],
          },
          {
            guard: 'handshakeAnswered',
            target: 'ready',
            actions: [{ type: 'identify', params: ({ event }) => event.frame }, 'writeNext'],
          },
          {
            target: 'closed',
            actions: {
              type: 'setCloseReason',
              params: ({ context, event }) => {
                const result = HANDSHAKES[context.role].decode(event.frame)
                return `handshake failed: ${result.ok ? '' : result.message}`
              },
            },
          },
        ],
      },
    },
    // Identified, nothing in flight: a command is written as it comes.
    ready: {
      on: {
        command: [
          {
            guard: 'writesNew',
            target: 'awaitingReply',
            actions: [{ type: 'queue', params: ({ event }) => event.job }, 'writeNext'],
          },
          // Refused or left (a hazard, a client gone): nothing is written; writeNext says so.
          { actions: [{ type: 'queue', params: ({ event }) => event.job }, 'writeNext'] },
        ],
        'link.frame': {
          target: 'closed',
          actions: { type: 'setCloseReason', params: 'protocol error: reply without a command' },
        },
      },
    },
    // One command written, its reply awaited; the others queued.
    awaitingReply: {
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
                message: `not sent: ${label(context)} did not answer the command before it`,
              }),
            },
          ],
        },
      },
      on: {
        'link.frame': [
          {
            guard: 'closesOnReply',
            target: 'closed',
            actions: [
              { type: 'settle', params: ({ event }) => ({ ok: true, value: event.frame }) },
              { type: 'setCloseReason', params: 'exited on request' },
            ],
          },
          {
            // The next command goes at once; its own deadline starts (the state is entered again).
            guard: 'writesAfterReply',
            target: 'awaitingReply',
            reenter: true,
            actions: [
              { type: 'settle', params: ({ event }) => ({ ok: true, value: event.frame }) },
              'writeNext',
            ],
          },
          {
            target: 'ready',
            actions: [
              { type: 'settle', params: ({ event }) => ({ ok: true, value: event.frame }) },
              'writeNext', // refuses what is left unsendable, if anything is
            ],
          },
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
        'link.frame': [
          {
            guard: 'writesQueued',
            target: 'awaitingReply',
            actions: [{ type: 'warn', params: 'late reply discarded' }, 'writeNext'],
          },
          {
            target: 'ready',
            actions: [{ type: 'warn', params: 'late reply discarded' }, 'writeNext'],
          },
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
