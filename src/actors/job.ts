// A queued command and the requests waiting for its reply, each answered in its own type.
import { ControllerError } from '../errors.ts'
import type { Change, Effect } from '../protocol/effects.ts'
import { fail, ok, type Result } from '../protocol/result.ts'
import { effectOf, type Command } from '../protocol/command.ts'

/** A reply frame, or why none came. */
export type Outcome = Result<Buffer>

/**
 * One request waiting for a reply; `answer` decodes it with the request's own command. `gone` is
 * set by an aborted signal; `left` is asked only when the job is about to be sent.
 */
type Waiter = { answer(outcome: Outcome): Result<Effect>; gone: boolean; left?: () => boolean }

/**
 * A command in a process's queue. A read may be shared: requests for the same read join it and
 * each decodes the one reply with its own command (decoding is memoised per frame, so it is read
 * once). `change` is what a change will do, checked against the view before it is sent.
 */
export type Job = {
  readonly line: string
  readonly metric: string
  readonly read: boolean
  readonly closes: boolean
  readonly change: Change | undefined
  readonly queuedAt: number
  readonly requestId: string | undefined
  /** For a change: its request's list of the changes it made (its log line tells them), if any. */
  readonly told: string[] | undefined
  readonly waiters: Waiter[]
}

/**
 * `signal` aborts when the client gives up; `left` says whether it has, checked only when needed
 * (cheaper per request than a signal and a listener).
 */
export type JobOptions = {
  requestId?: string
  signal?: AbortSignal
  left?: () => boolean
  /** Where a change that succeeded is told: its request's own log line says it (see logCommand). */
  told?: string[]
}

const failure = (outcome: Result<unknown> & { ok: false }) =>
  new ControllerError(outcome.code, outcome.message)

/** A job for one request; the promise settles with the decoded reply or the reason there is none. */
export function createJob<T>(command: Command<T>, options: JobOptions = {}) {
  let settle!: { resolve: (value: T) => void; reject: (error: ControllerError) => void }
  const promise = new Promise<T>((resolve, reject) => (settle = { resolve, reject }))
  const waiter: Waiter = {
    gone: false,
    left: options.left,
    answer(outcome) {
      if (!outcome.ok) {
        settle.reject(failure(outcome))
        return outcome
      }
      let reply: Result<T>
      try {
        reply = command.decode(outcome.value)
      } catch (error) {
        reply = fail(`decoding the reply failed: ${(error as Error).message}`, 'INTERNAL')
      }
      if (!reply.ok) {
        settle.reject(failure(reply))
        return reply
      }
      settle.resolve(reply.value)
      return ok(effectOf(command, reply.value))
    },
  }
  // A client that gives up before its command is written takes it out of the queue (see `live`).
  options.signal?.addEventListener('abort', () => (waiter.gone = true), { once: true })
  const job: Job = {
    line: command.line,
    metric: command.metric,
    read: command.read,
    closes: command.closes === true,
    change: command.read ? undefined : command.effect,
    queuedAt: performance.now(),
    requestId: options.requestId,
    told: command.read ? undefined : options.told,
    waiters: [waiter],
  }
  return { job, promise }
}

/** Whether any request still waits for this job. */
export const live = (job: Job) => job.waiters.some((w) => !w.gone && !w.left?.())

/** Answers every request of a job; the effect seen by the first (for the view and events). */
export function answer(job: Job, outcome: Outcome): Result<Effect> {
  let first: Result<Effect> | undefined
  for (const waiter of job.waiters) {
    let result: Result<Effect>
    try {
      result = waiter.answer(outcome)
    } catch (error) {
      result = fail(`decoding the reply failed: ${(error as Error).message}`, 'INTERNAL')
    }
    first ??= result
  }
  return first ?? fail('no request waited for this reply', 'INTERNAL')
}

/** Fails every request of a job without sending it. */
export const refuse = (job: Job, message: string, code: ControllerError['code']) =>
  answer(job, fail(message, code))
