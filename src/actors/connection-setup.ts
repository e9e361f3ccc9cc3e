// What a process connection can do (its guards and actions); process-connection.ts says when.
import { assign, enqueueActions, setup } from 'xstate'
import type { ErrorCode } from '../errors.ts'
import type { ProcessKind } from '../protocol/bodies.ts'
import type { Identity } from '../protocol/handshake.ts'
import { eraLabel, firstLearnt, learn } from '../protocol/release.ts'
import type { Result } from '../protocol/result.ts'
import { emptyView } from '../state/process-view.ts'
import { admit, settleAndTell, writeNext } from './command-flow.ts'
import type { Context, Input } from './connection-context.ts'
import { refuse, type Job } from './job.ts'
import { processLabel as label } from './label.ts'
import { socketLink, type LinkEvent } from './socket-link.ts'

export type { CommandDone, Context, Input } from './connection-context.ts'

type Events =
  | { type: 'command'; job: Job }
  | LinkEvent
  | { type: 'handshake'; result: Result<Identity> }
  | { type: 'close'; reason: string }
  /** The reply awaited now is overdue (see `deadline`). */
  | { type: 'replyTimeout' }
  /** `takeReply` failed: the error is thrown in the machine, which ends as any action's error does. */
  | { type: 'fault'; error: unknown }
type Emitted =
  | { type: 'identified'; kind: ProcessKind; clientId?: number; era?: '18.11' | '2020' }
  /** Commands that were never written when the connection closed: they may wait for the process. */
  | { type: 'unsent'; jobs: Job[] }

/** Why a command on this connection was not answered: it closed. */
export const closedMessage = (context: Context) =>
  `connection to ${label(context)} closed: ${context.closeReason ?? 'unknown reason'}`

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
     * Settles the command in flight with its reply (or why none came) and tells the listeners,
     * changing the context in place (as `queue` is): an `assign` copied the context and its
     * snapshot per command.
     */
    settleAndTell: ({ context }, reply: Result<Buffer>) => settleAndTell(context, reply),
    /** The same, writing the next command first (a reply `takeReply` was not offered). */
    settleNextAndTell: ({ context, self }, reply: Result<Buffer>) =>
      settleAndTell(context, reply, { next: self.getSnapshot().children.link }),
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
