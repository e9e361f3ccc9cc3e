// A queued command and the requests waiting for its reply, each answered in its own type.
import { ControllerError, type ErrorCode } from '../protocol/errors.ts'
import type { Change, Effect } from '../protocol/effects.ts'
import { fail, ok, type Result } from '../protocol/result.ts'
import { effectOf, type Command } from '../protocol/command.ts'
import type { AskOptions, Cause } from './settled.ts'

/**
 * A reply read with its command, once for every request waiting for it: the decoded value and what
 * it says the process did; or why there is none (a bad reply, a timeout, a closed connection).
 */
export type Reply = Result<{ value: unknown; effect: Effect }>

/** One request waiting for a reply: `settle` answers it; `left` says whether its client has gone. */
type Waiter = {
  settle(reply: Reply): void
  left(): boolean
}

/**
 * A command in a process's queue, never changed once made: a read that others join is replaced by
 * one with more waiters. `change` is what a change will do, checked against the view before it is
 * sent; `command` reads its reply (a request joins only a read decoded by the same decoder, so the
 * value is of its own type).
 */
export type Job = {
  readonly line: string
  readonly metric: string
  readonly read: boolean
  readonly closes: boolean
  readonly change: Change | undefined
  readonly queuedAt: number
  readonly cause: Cause | undefined
  readonly command: Command<unknown>
  readonly waiters: readonly Waiter[]
}

const failure = (reply: Result<unknown> & { ok: false }) =>
  new ControllerError(reply.code, reply.message)

/** A job for one request; the promise settles with the decoded reply or the reason there is none. */
export function createJob<T>(command: Command<T>, options: AskOptions = {}) {
  let answer!: { resolve: (value: T) => void; reject: (error: ControllerError) => void }
  const promise = new Promise<T>((resolve, reject) => (answer = { resolve, reject }))
  const { signal, left } = options
  const waiter: Waiter = {
    settle(reply) {
      if (reply.ok) answer.resolve(reply.value.value as T)
      else answer.reject(failure(reply))
    },
    left: () => signal?.aborted === true || left?.() === true,
  }
  const job: Job = {
    line: command.line,
    metric: command.metric,
    read: command.read,
    closes: command.closes === true,
    change: command.read ? undefined : command.effect,
    queuedAt: performance.now(),
    cause: options.cause,
    // Its value reaches the request as the T its own decoder made (see canJoin).
    command: command as Command<unknown>,
    waiters: [waiter],
  }
  return { job, promise }
}

/** Reads a reply frame with the job's command, once for all its requests; never throws. */
export function readReply(job: Job, frame: Buffer): Reply {
  const { command } = job
  try {
    const reply = command.decode(frame)
    return reply.ok ? ok({ value: reply.value, effect: effectOf(command, reply.value) }) : reply
  } catch (error) {
    return fail(`decoding the reply failed: ${(error as Error).message}`, 'INTERNAL')
  }
}

/** The read at the tail with another request's waiters too (both read the same, at one point). */
export const joined = (tail: Job, job: Job): Job => ({
  ...tail,
  waiters: [...tail.waiters, ...job.waiters],
})

/** Whether a job may take a read's place: both reads of the same line, decoded the same way. */
export const canJoin = (tail: Job, job: Job): boolean =>
  tail.read && job.read && tail.line === job.line && tail.command.decode === job.command.decode

/** Whether any request still waits for this job. */
export const live = (job: Job): boolean => job.waiters.some((w) => !w.left())

/** Answers every request of a job with the reply, or why there is none. */
export function answer(job: Job, reply: Reply): void {
  for (const waiter of job.waiters) waiter.settle(reply)
}

/** Fails every request of a job without sending it. */
export const refuse = (job: Job, message: string, code: ErrorCode): void =>
  answer(job, fail(message, code))

/** Fails every request of these jobs without sending them. */
export function refuseAll(jobs: readonly Job[], message: string, code: ErrorCode): void {
  for (const job of jobs) refuse(job, message, code)
}
