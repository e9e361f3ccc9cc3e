import type { Socket } from 'node:net'
import type { Logger } from 'pino'
import {
  assign,
  enqueueActions,
  fromCallback,
  raise,
  sendTo,
  setup,
  type ActorRefFrom,
} from 'xstate'
import { HANDSHAKES, type Identity } from '../protocol/client-id.ts'
import { frameReader, type Framing } from '../protocol/frames.ts'
import { fail, type Result } from '../protocol/result.ts'
import type { Command, ProcessKind, ProcessView } from '../protocol/types.ts'

export type LinkInput = { socket: Socket; framing: Framing; maxReplyBytes: number }
export type LinkEvent =
  { type: 'link.frame'; frame: Buffer } | { type: 'link.closed'; reason: string }

/** Owns the socket: writes each line it is sent, sends back one event per complete reply. */
export const socketLink = fromCallback<{ type: 'write'; line: string }, LinkInput, LinkEvent>(
  ({ input, sendBack, receive }) => {
    const { socket } = input
    const frames = frameReader(input.framing, input.maxReplyBytes)
    let failure: string | undefined
    socket.on('data', (chunk: Buffer) => {
      const read = frames.push(chunk)
      if (!read.ok) {
        failure = `protocol error: ${read.message}`
        socket.destroy()
        return
      }
      for (const frame of read.value) sendBack({ type: 'link.frame', frame })
    })
    socket.on('error', (error) => (failure ??= `socket error: ${error.message}`)) // 'close' follows
    socket.on('close', () =>
      sendBack({ type: 'link.closed', reason: failure ?? 'the process closed the connection' }),
    )
    receive((event) => socket.write(event.line))
    return () => socket.destroy()
  },
)

/** A queued command; `requestId` names the HTTP request it serves, in the logs. */
export type Job = { id: number; command: Command; queuedAt: number; requestId?: string }
/** A job in the queue, with the requests that joined it and share its reply. */
type QueuedJob = Job & { joined: number[] }

/**
 * Queues a job. A coalescing read joins the same read at the tail of the queue instead: it would
 * run at the same point, so it sees every change that finished before it, and costs no command.
 */
export function enqueue(queue: QueuedJob[], job: Job): QueuedJob[] {
  const last = queue.at(-1)
  if (
    last &&
    job.command.coalesce &&
    last.command.coalesce &&
    last.command.line === job.command.line
  ) {
    return [...queue.slice(0, -1), { ...last, joined: [...last.joined, job.id] }]
  }
  return [...queue, { ...job, joined: [] }]
}

export type Input = {
  socket: Socket
  /** The port it came in on: a primary is probed with `status`, a secondary asked its client id. */
  role: 'primary' | 'secondary'
  replyTimeoutMs: number
  maxReplyBytes: number
  log: Logger
}
type Context = Input & {
  queue: QueuedJob[]
  current?: QueuedJob & { sentAt: number }
  kind?: ProcessKind
  clientId?: number
  view: ProcessView
  closeReason?: string
}
type Events =
  | ({ type: 'command' } & Job)
  | LinkEvent
  | { type: 'handshake'; result: Result<Identity> }
  | { type: 'close'; reason: string }
type Emitted =
  | { type: 'identified'; kind: ProcessKind; clientId?: number }
  | { type: 'settled'; id: number; reply: Result<unknown> }
  | {
      type: 'commandDone'
      line: string
      reply: Result<unknown>
      before: ProcessView
      after: ProcessView
      ms: number
    }

const timedOut = (ms: number) => fail(`no reply within ${ms} ms`, 'REPLY_TIMEOUT')
const label = ({ kind, clientId }: Pick<Context, 'kind' | 'clientId'>) =>
  kind === undefined ? 'unidentified' : clientId === undefined ? kind : `${kind} ${clientId}`

/** One connected SPP process: identifies it, queues its commands and keeps one in flight. */
export const processConnection = setup({
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- xstate's way to declare types
  types: {} as { input: Input; context: Context; events: Events; emitted: Emitted },
  actors: { socketLink },
  delays: { replyTimeout: ({ context }) => context.replyTimeoutMs },
  guards: {
    hasQueue: ({ context }) => context.queue.length > 0,
    currentCloses: ({ context }) => context.current?.command.closes === true,
  },
  actions: {
    sendNext: enqueueActions(
      ({
        context: {
          queue: [job, ...rest],
        },
        enqueue,
      }) => {
        if (!job) return
        enqueue.assign({ current: { ...job, sentAt: performance.now() }, queue: rest })
        enqueue.sendTo('link', { type: 'write', line: job.command.line })
      },
    ),
    settle: enqueueActions(({ context, enqueue }, reply: Result<unknown>) => {
      const { current, view } = context
      if (!current) return
      const { line } = current.command
      const track = current.command.track?.bind(current.command)
      const ms = performance.now() - current.sentAt
      const level = reply.ok ? 'info' : 'warn'
      if (context.log.isLevelEnabled(level)) {
        const outcome = reply.ok ? 'ok' : reply.code
        const fields = {
          req: current.requestId,
          process: label(context),
          command: line,
          outcome,
          ms: Math.round(performance.now() - current.queuedAt),
          joined: current.joined.length,
        }
        context.log[level](fields, reply.ok ? 'command done' : `command failed: ${reply.message}`)
      }
      const after = reply.ok && track ? track(view, reply.value) : view
      if (after !== view) enqueue.assign({ view: after })
      enqueue.emit({ type: 'commandDone', line, reply, before: view, after, ms })
      for (const id of [current.id, ...current.joined]) enqueue.emit({ type: 'settled', id, reply })
      enqueue.assign({ current: undefined })
    }),
    /** Fails every queued command without sending it. */
    failQueue: enqueueActions(({ context, enqueue }, reply: Result<unknown>) => {
      for (const { id, joined } of context.queue)
        for (const each of [id, ...joined]) enqueue.emit({ type: 'settled', id: each, reply })
      enqueue.assign({ queue: [] })
    }),
    setCloseReason: assign({ closeReason: (_, reason: string) => reason }),
  },
}).createMachine({
  id: 'processConnection',
  context: ({ input }) => ({ ...input, queue: [], view: {} }),
  invoke: {
    id: 'link',
    src: 'socketLink',
    input: ({ context }) => ({
      socket: context.socket,
      framing: context.role === 'primary' ? 'fixed' : 'detect',
      maxReplyBytes: context.maxReplyBytes,
    }),
  },
  on: {
    command: {
      actions: assign({
        queue: ({ context, event: { type: _, ...job } }) => enqueue(context.queue, job),
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
            actions: enqueueActions(({ event: { result }, enqueue }) => {
              if (!result.ok) return
              enqueue.assign({ kind: result.value.kind, clientId: result.value.clientId })
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
      on: {
        'link.frame': [
          {
            guard: 'currentCloses',
            target: 'closed',
            actions: [
              {
                type: 'settle',
                params: ({ context, event }) => context.current!.command.decode(event.frame),
              },
              { type: 'setCloseReason', params: 'exited on request' },
            ],
          },
          {
            target: 'idle',
            actions: {
              type: 'settle',
              params: ({ context, event }) => context.current!.command.decode(event.frame),
            },
          },
        ],
      },
      after: {
        replyTimeout: {
          target: 'discardingLateReply',
          actions: [
            { type: 'settle', params: ({ context }) => timedOut(context.replyTimeoutMs) },
            {
              type: 'failQueue',
              params: ({ context }) =>
                fail(
                  `not sent: ${label(context)} did not answer the command before it`,
                  'PROCESS_UNRESPONSIVE',
                ),
            },
          ],
        },
      },
    },
    // The late reply must still be read, or it would be taken as the answer to the next command.
    // If it never comes the process is hung or lost a reply: drop it, so it reconnects on a clean channel.
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
        {
          type: 'failQueue',
          params: ({ context }) => fail(closedMessage(context), 'CONNECTION_CLOSED'),
        },
      ],
    },
  },
})

const closedMessage = (context: Context) =>
  `connection to ${label(context)} closed: ${context.closeReason ?? 'unknown reason'}`

export type ProcessConnection = ActorRefFrom<typeof processConnection>
export { label as processLabel }
