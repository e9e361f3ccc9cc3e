// One connected SPP process as an xstate actor: identifies it, queues its commands, one in flight.
import type { Socket } from 'node:net'
import type { Logger } from 'pino'
import { assign, enqueueActions, raise, sendTo, setup, type ActorRefFrom } from 'xstate'
import type { ErrorCode } from '../errors.ts'
import { HANDSHAKES, type Identity } from '../protocol/handshake.ts'
import type { Effect } from '../protocol/effects.ts'
import { learnProfile, type Era, type Profile } from '../protocol/era.ts'
import { fail, type Result } from '../protocol/result.ts'
import type { ProcessKind } from '../protocol/command.ts'
import { hazardOf, needsCores } from '../state/hazards.ts'
import { mirrorCommands, vfCommands } from '../protocol/kinds/vf.ts'
import { emptyView, nextView, type ProcessView } from '../state/process-view.ts'
import { CommandQueue } from './command-queue.ts'
import { answer, createJob, refuse, type Job } from './job.ts'
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
type Context = Input & {
  queue: CommandQueue // mutated in place: copying it on every command cost O(n) per event
  current?: { job: Job; sentAt: number }
  kind?: ProcessKind
  clientId?: number
  view?: ProcessView
  /** The wire dialect learnt from what the process sent (protocol/era.ts). */
  profile: Profile
  closeReason?: string
}
type Events =
  | { type: 'command'; job: Job }
  | LinkEvent
  | { type: 'handshake'; result: Result<Identity> }
  | { type: 'close'; reason: string }
/** A command's outcome, for the logs, the event stream and the metrics. */
export type CommandDone = {
  type: 'commandDone'
  line: string
  metric: string
  reply: Result<Effect>
  before: ProcessView
  after: ProcessView
  ms: number
}
type Emitted =
  | { type: 'identified'; kind: ProcessKind; clientId?: number; era?: Era }
  | CommandDone
  /** Commands that were never written when the connection closed: they may wait for the process. */
  | { type: 'unsent'; jobs: Job[] }

const label = ({ kind, clientId }: { kind?: ProcessKind; clientId?: number }) =>
  kind === undefined ? 'unidentified' : clientId === undefined ? kind : `${kind} ${clientId}`
const closedMessage = (context: Context) =>
  `connection to ${label(context)} closed: ${context.closeReason ?? 'unknown reason'}`

/** One connected SPP process: identifies it, queues its commands and keeps one in flight. */
export const processConnection = setup({
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- xstate's typing idiom
  types: {} as { input: Input; context: Context; events: Events; emitted: Emitted },
  actors: { socketLink },
  delays: { replyTimeout: ({ context }) => context.replyTimeoutMs },
  guards: {
    hasQueue: ({ context }) => context.queue.length > 0,
    nothingSent: ({ context }) => context.current === undefined,
    currentCloses: ({ context }) => context.current?.job.closes === true,
  },
  actions: {
    queue: ({ context: { queue, maxQueue, kind, clientId } }, job: Job) => {
      if (queue.joins(job) || queue.length < maxQueue) return queue.push(job)
      const process = label({ kind, clientId })
      refuse(job, `${process} has ${maxQueue} commands waiting: try again later`, 'QUEUE_FULL')
    },
    /** Writes the next command someone still waits for, refusing any that would hang the process. */
    sendNext: enqueueActions(({ context, enqueue }) => {
      for (let job = context.queue.shift(); job; job = context.queue.shift()) {
        const { view } = context
        // A component start is never sent unchecked: on a connection whose status was not read
        // yet (a reconnect, a command resent after one), the status is read first.
        if (view && job.change && needsCores(view, job.change)) {
          context.queue.unshift(job)
          const read =
            view.kind === 'mirror'
              ? createJob(mirrorCommands.status())
              : createJob(vfCommands.status())
          read.promise.catch(() => {}) // nobody waits for it; it fills the view
          job = read.job
        }
        const hazard = view && job.change && hazardOf(view, job.change)
        if (hazard) {
          refuse(job, hazard, 'INVALID_REQUEST')
          continue
        }
        enqueue.assign({ current: { job, sentAt: performance.now() } })
        enqueue.sendTo('link', { type: 'write', line: job.line })
        return
      }
    }),
    settle: enqueueActions(({ context, enqueue }, reply: Result<Buffer>) => {
      const { current, view, log } = context
      if (!current || !view) return
      const { job, sentAt } = current
      const result = answer(job, reply)
      let after = view
      if (result.ok) {
        const next = nextView(view, result.value, Date.now())
        if (next.ok) after = next.value
        else log.error({ process: label(context), command: job.line }, next.message)
      }
      const level = result.ok ? 'info' : 'warn'
      if (log.isLevelEnabled(level)) {
        const ms = Math.round(performance.now() - job.queuedAt)
        const outcome = result.ok ? 'ok' : result.code
        const fields = {
          req: job.requestId,
          process: label(context),
          command: job.line,
          outcome,
          ms,
          joined: job.waiters.length - 1,
        }
        log[level](fields, result.ok ? 'command done' : `command failed: ${result.message}`)
      }
      const profile = result.ok ? learnProfile(context.profile, result.value) : context.profile
      enqueue.assign({ current: undefined, view: after, profile })
      const ms = performance.now() - sentAt
      const { line, metric } = job
      enqueue.emit({ type: 'commandDone', line, metric, reply: result, before: view, after, ms })
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
  },
}).createMachine({
  id: 'processConnection',
  context: ({ input }) => ({ ...input, queue: new CommandQueue(), profile: {} }),
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
      actions: assign({
        profile: ({ context, event }) => ({ ...context.profile, frameBytes: event.bytes }),
      }),
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
    identifying: {
      entry: sendTo('link', ({ context }) => ({
        type: 'write' as const,
        line: HANDSHAKES[context.role].line,
      })),
      on: {
        'link.frame': {
          actions: raise(({ context, event }) => ({
            type: 'handshake' as const,
            result: HANDSHAKES[context.role].decode(event.frame),
          })),
        },
        handshake: [
          {
            guard: ({ event }) => event.result.ok,
            target: 'idle',
            actions: enqueueActions(({ context, event: { result }, enqueue }) => {
              if (!result.ok) return
              const { kind, clientId, era } = result.value
              const profile = era ? { ...context.profile, era } : context.profile
              enqueue.assign({ kind, clientId, view: emptyView(kind), profile })
              enqueue.emit({ type: 'identified', ...result.value })
            }),
          },
          {
            target: 'closed',
            actions: {
              type: 'setCloseReason',
              params: ({ event }) =>
                `handshake failed: ${event.result.ok ? '' : event.result.message}`,
            },
          },
        ],
      },
      after: {
        replyTimeout: {
          target: 'closed',
          actions: {
            type: 'setCloseReason',
            params: ({ context }) => `no answer to ${HANDSHAKES[context.role].line}`,
          },
        },
      },
    },
    idle: {
      always: { guard: 'hasQueue', target: 'awaitingReply' },
      on: {
        'link.frame': {
          target: 'closed',
          actions: { type: 'setCloseReason', params: 'protocol error: reply without a command' },
        },
      },
    },
    awaitingReply: {
      entry: 'sendNext',
      always: { guard: 'nothingSent', target: 'idle' }, // every queued client had gone
      on: {
        'link.frame': [
          {
            guard: 'currentCloses',
            target: 'closed',
            actions: [
              { type: 'settle', params: ({ event }) => ({ ok: true, value: event.frame }) },
              { type: 'setCloseReason', params: 'exited on request' },
            ],
          },
          // Straight on to the next command: through idle, each reply cost a second microstep.
          {
            guard: 'hasQueue',
            target: 'awaitingReply',
            reenter: true, // restarts the reply timer
            actions: { type: 'settle', params: ({ event }) => ({ ok: true, value: event.frame }) },
          },
          {
            target: 'idle',
            actions: { type: 'settle', params: ({ event }) => ({ ok: true, value: event.frame }) },
          },
        ],
      },
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
    },
    // The late reply must still be read, or it would be taken as the answer to the next command.
    // If it never comes the process is hung or lost a reply: drop it, so it reconnects on a clean
    // channel; what was queued meanwhile waits for it (handOver).
    discardingLateReply: {
      on: {
        'link.frame': {
          target: 'idle',
          actions: ({ context }) =>
            context.log.warn({ process: label(context) }, 'late reply discarded'),
        },
      },
      after: {
        replyTimeout: {
          target: 'closed',
          actions: { type: 'setCloseReason', params: 'no reply to a timed-out command' },
        },
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
export { label as processLabel }
