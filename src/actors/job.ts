// A queued command and the requests waiting for its reply, each answered in its own type.
import { ControllerError } from '../protocol/errors.ts'
import type { Change, Effect } from '../protocol/effects.ts'
import { fail, ok, type Result } from '../protocol/result.ts'
import { effectOf, type Command } from '../protocol/command.ts'
import type { AskOptions, Cause } from './settled.ts'

/** A reply frame, or why none came. */
export type Outcome = Result<Buffer>

/**
 * One request waiting for a reply. `decode` reads a reply with the request's own command (a read
 * shared by several requests is decoded by each, in its own type; decoders of reads are memoised
 * per frame); `settle` answers the request; `left` says whether its client has gone.
 */
type Waiter = {
  decode(frame: Buffer): Result<Effect>
  settle(outcome: Outcome): void
  left(): boolean
}

/**
 * A command in a process's queue, never changed once made: a read that others join is replaced by
 * one with more waiters. `change` is what a change will do, checked against the view before it is
 * sent.
 */
export type Job = {
  readonly line: string
  readonly metric: string
  readonly read: boolean
  readonly closes: boolean
  readonly change: Change | undefined
  readonly queuedAt: number
  readonly cause: Cause | undefined
  readonly waiters: readonly Waiter[]
}

const failure = (outcome: Result<unknown> & { ok: false }) =>
  new ControllerError(outcome.code, outcome.message)

function decodeWith<T>(command: Command<T>, frame: Buffer): Result<T> {
  try {
    return command.decode(frame)
  } catch (error) {
    return fail(`decoding the reply failed: ${(error as Error).message}`, 'INTERNAL')
  }
}

/** A job for one request; the promise settles with the decoded reply or the reason there is none. */
export function createJob<T>(command: Command<T>, options: AskOptions = {}) {
  let answer!: { resolve: (value: T) => void; reject: (error: ControllerError) => void }
  const promise = new Promise<T>((resolve, reject) => (answer = { resolve, reject }))
  const { signal, left } = options
  const waiter: Waiter = {
    decode(frame) {
      const reply = decodeWith(command, frame)
      return reply.ok ? ok(effectOf(command, reply.value)) : reply
    },
    settle(outcome) {
      if (!outcome.ok) return answer.reject(failure(outcome))
      const reply = decodeWith(command, outcome.value)
      if (reply.ok) answer.resolve(reply.value)
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
    waiters: [waiter],
  }
  return { job, promise }
}

/** The read at the tail with another request's waiters too (both read the same, at one point). */
export const joined = (tail: Job, job: Job): Job => ({
  ...tail,
  waiters: [...tail.waiters, ...job.waiters],
})

/** Whether a job may take a read's place: both reads of the same line. */
export const canJoin = (tail: Job, job: Job): boolean =>
  tail.read && job.read && tail.line === job.line

/** Whether any request still waits for this job. */
export const live = (job: Job): boolean => job.waiters.some((w) => !w.left())

/** What a reply says the process did, as the job's first request reads it. Pure. */
export function effectOfReply(job: Job, outcome: Outcome): Result<Effect> {
  const [first] = job.waiters
  if (!first) return fail('no request waited for this reply', 'INTERNAL')
  return outcome.ok ? first.decode(outcome.value) : outcome
}

/** Answers every request of a job with the reply, or why there is none. */
export function answer(job: Job, outcome: Outcome): void {
  for (const waiter of job.waiters) waiter.settle(outcome)
}

/** Fails every request of a job without sending it. */
export const refuse = (job: Job, message: string, code: ControllerError['code']): void =>
  answer(job, fail(message, code))
