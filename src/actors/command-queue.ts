// The commands of one process: the one written, and those waiting, first in, first out, O(1) each.
import { live, type Job } from './job.ts'

/** A command written to the process, whose reply is awaited, and when it was written. */
export type InFlight = { readonly job: Job; readonly sentAt: number }

/**
 * A FIFO of jobs, and the one in flight (one at a time). A read joins the same read at the tail instead of queueing again: it would run
 * at the same point, so it sees every change that finished before it, and costs no command. Jobs
 * whose every request has gone are skipped, never sent.
 */
export class CommandQueue {
  #jobs: (Job | undefined)[] = []
  #head = 0
  /** The command written, until its reply (or why none came) settles it. */
  current: InFlight | undefined

  /** Jobs waiting, whether or not their clients are still there. */
  get length(): number {
    return this.#jobs.length - this.#head
  }

  /** Whether this job would join the one at the tail rather than take a place of its own. */
  joins(job: Job): boolean {
    const last = this.#jobs.at(-1)
    return this.length > 0 && last !== undefined && last.read && job.read && last.line === job.line
  }

  push(job: Job): void {
    const last = this.#jobs.at(-1)
    if (last && this.joins(job)) last.waiters.push(...job.waiters)
    else this.#jobs.push(job)
  }

  /** Puts a job back at the head of the queue (it goes next). */
  unshift(job: Job): void {
    if (this.#head > 0) this.#jobs[--this.#head] = job
    else this.#jobs.unshift(job)
  }

  /** The next job someone still waits for. */
  shift(): Job | undefined {
    while (this.#head < this.#jobs.length) {
      const job = this.#jobs[this.#head]
      this.#jobs[this.#head++] = undefined
      if (this.#head > 1024 && this.#head * 2 > this.#jobs.length) this.#compact()
      if (job && live(job)) return job
    }
    this.#jobs = []
    this.#head = 0
    return undefined
  }

  /** Empties the queue, returning what was in it. */
  drain(): Job[] {
    const rest = this.#jobs.slice(this.#head).filter((job): job is Job => job !== undefined)
    this.#jobs = []
    this.#head = 0
    return rest.filter(live)
  }

  #compact() {
    this.#jobs = this.#jobs.slice(this.#head)
    this.#head = 0
  }
}
