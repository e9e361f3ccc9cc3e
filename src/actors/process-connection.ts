// One connected SPP process as an xstate actor: identifies it, queues its commands, one in flight.
import { assign, raise, sendTo, type ActorRefFrom, type AnyActorRef } from 'xstate'
import { HANDSHAKES } from '../protocol/handshake.ts'
import { learn } from '../protocol/release.ts'
import { fail } from '../protocol/result.ts'
import { CommandQueue } from './command-queue.ts'
import { DoneListeners } from './done-listeners.ts'
import { takeReply } from './command-flow.ts'
import { closedMessage, connectionSetup, type CommandDone } from './connection-setup.ts'
import { processLabel as label } from './label.ts'
import { ReplyDeadline, type DeadlineClock } from './reply-deadline.ts'

export type { CommandDone, Input } from './connection-setup.ts'

/** One connected SPP process: identifies it, queues its commands and keeps one in flight. */
export const processConnection = connectionSetup.createMachine({
  id: 'processConnection',
  context: ({ input, self }) => ({
    ...input,
    queue: new CommandQueue(),
    deadline: new ReplyDeadline(clockOf(self), () => self.send({ type: 'replyTimeout' })),
    done: new DoneListeners(),
  }),
  invoke: {
    id: 'link',
    src: 'socketLink',
    input: ({ context, self }) => ({
      socket: context.socket,
      framing: context.role === 'primary' ? 'padded' : 'detect',
      maxReplyBytes: context.maxReplyBytes,
      take: (frame: Buffer) => takeReply(self, frame),
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
    // takeReply's error, thrown again where xstate catches it: the actor ends with it.
    fault: {
      actions: ({ event }) => {
        throw event.error
      },
    },
  },
  initial: 'identifying',
  states: {
    identifying: {
      entry: [
        sendTo('link', ({ context }) => ({
          type: 'write' as const,
          line: HANDSHAKES[context.role].line,
        })),
        'armDeadline',
      ],
      exit: 'disarmDeadline',
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
            target: 'ready',
            actions: { type: 'identify', params: ({ event }) => event.result },
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
        replyTimeout: {
          target: 'closed',
          actions: {
            type: 'setCloseReason',
            params: ({ context }) => `no answer to ${HANDSHAKES[context.role].line}`,
          },
        },
      },
    },
    // Identified: one command in flight at a time (`queue.current`), the rest queued. A command
    // sent while one is in flight goes into the queue without an event (see ask.ts), and the
    // reply to it is taken without one (takeReply, command-flow.ts), which writes the next; the
    // `link.frame` transitions below are for the rest (a reply with nothing in flight, to a
    // command that closes, from a link that offers it to no one). Only a connection with nothing in flight is woken by
    // `command`. No transition here changes state: each event is one microstep.
    ready: {
      entry: 'sendNext', // what was queued while identifying, or behind a timed-out command
      on: {
        command: { actions: [{ type: 'queue', params: ({ event }) => event.job }, 'sendNext'] },
        'link.frame': [
          {
            guard: 'nothingSent',
            target: 'closed',
            actions: { type: 'setCloseReason', params: 'protocol error: reply without a command' },
          },
          {
            guard: 'currentCloses',
            target: 'closed',
            actions: [
              { type: 'settleAndTell', params: ({ event }) => ({ ok: true, value: event.frame }) },
              { type: 'setCloseReason', params: 'exited on request' },
            ],
          },
          {
            actions: {
              type: 'settleNextAndTell',
              params: ({ event }) => ({ ok: true, value: event.frame }),
            },
          },
        ],
        replyTimeout: {
          target: 'discardingLateReply',
          actions: [
            {
              type: 'settleAndTell',
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
      entry: 'armDeadline',
      exit: 'disarmDeadline',
      on: {
        'link.frame': {
          target: 'ready',
          actions: ({ context }) =>
            context.log.warn({ process: label(context) }, 'late reply discarded'),
        },
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
          type: 'settleAndTell',
          params: ({ context }) => fail(closedMessage(context), 'CONNECTION_CLOSED'),
        },
        'handOver',
        'stopDeadline',
      ],
    },
  },
})

/** The clock of the actor (a SimulatedClock in tests): the deadline's timer runs on it. */
const clockOf = (self: AnyActorRef): DeadlineClock =>
  (self as AnyActorRef & { clock: DeadlineClock }).clock

export type ProcessConnection = ActorRefFrom<typeof processConnection>

/**
 * Calls `listener` with each command the connection settles (its outcome, and the view before and
 * after), until the returned function is called. Not an xstate event: most replies never reach
 * the machine (`takeReply`).
 */
export function onCommandDone(
  connection: ProcessConnection,
  listener: (done: CommandDone) => void,
): () => void {
  return connection.getSnapshot().context.done.add(listener)
}
