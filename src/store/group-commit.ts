// Group commit: writes queue on the main thread, and a writer thread commits everything queued
// while its previous commit ran as one transaction, so that many writers share one fsync and the
// event loop never waits on the disk.
import { Worker } from 'node:worker_threads'
import type { Committed, ToWriter, Write } from './batch.ts'
import { StoreError } from './store-error.ts'

type Waiter = { upTo: number; resolve: () => void; reject: (error: Error) => void }
type Batch = { id: number; writes: Write[]; upTo: number }

/** The writer thread's file: next to this module in src/, next to the bundle in dist/. */
const WRITER = new URL('./store-writer.js', import.meta.url)

/** Counters for tests and measurements. */
export type CommitStats = { commits: number; writes: number; writer: boolean }

/**
 * The queue of writes and the writer thread behind it. Writes are counted from the first, so that
 * "everything queued before this call" is a number, and durability is reached in that order.
 */
export class GroupCommit {
  readonly #path: string
  readonly #onCommitted: (pruned: number) => void
  #worker: Worker | undefined // started at the first commit: an idle controller has none
  #pending: Write[] = []
  #queued = 0
  #durable = 0
  #inFlight: Batch | undefined
  #waiters: Waiter[] = [] // in the order of upTo, since each one waits for all that was queued
  #scheduled = false
  #nextId = 1
  #commits = 0

  constructor(path: string, onCommitted: (pruned: number) => void) {
    this.#path = path
    this.#onCommitted = onCommitted
  }

  /** Queues a write; it is committed with the others of this event-loop turn, or after. */
  push(write: Write): void {
    this.#pending.push(write)
    this.#queued++
    this.#schedule()
  }

  /** Resolves once every write queued before the call is committed; rejects if its commit failed. */
  sync(): Promise<void> {
    if (this.#durable >= this.#queued) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.#waiters.push({ upTo: this.#queued, resolve, reject })
      this.#schedule() // writes left by a failed commit are tried again when someone waits
    })
  }

  /** Commits what is queued, then ends the writer thread. */
  async close(): Promise<void> {
    try {
      await this.sync()
    } finally {
      const worker = this.#worker
      this.#worker = undefined
      if (worker !== undefined) {
        const exited = new Promise((resolve) => worker.once('exit', resolve))
        worker.ref() // until it has closed the database
        worker.postMessage({ type: 'close' } satisfies ToWriter)
        await exited
      }
    }
  }

  stats(): CommitStats {
    return { commits: this.#commits, writes: this.#durable, writer: this.#worker !== undefined }
  }

  // One commit per turn at most: the writes of this turn's callbacks go together.
  #schedule(): void {
    if (this.#scheduled || this.#inFlight !== undefined) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      this.#send()
    })
  }

  #send(): void {
    if (this.#inFlight !== undefined || this.#pending.length === 0) return
    const writes = this.#pending
    this.#pending = []
    const batch = { id: this.#nextId++, writes, upTo: this.#durable + writes.length }
    this.#inFlight = batch
    const worker = (this.#worker ??= this.#start())
    worker.ref() // a commit under way keeps node running, an idle writer does not
    worker.postMessage({ type: 'commit', id: batch.id, writes } satisfies ToWriter)
  }

  #start(): Worker {
    // Plain JavaScript: it needs none of the parent's flags, such as the loader of TypeScript (tsx)
    // that tests run under and that would double the thread's start-up time.
    const worker = new Worker(WRITER, { workerData: { path: this.#path }, execArgv: [] })
    worker.on('message', (answer: Committed) => this.#settle(answer))
    worker.on('error', (error) => this.#lost(worker, error.message))
    worker.on('exit', () => this.#lost(worker, 'the writer thread ended'))
    return worker
  }

  // A writer that failed to start or died: its commit failed; the next commit starts another.
  #lost(worker: Worker, message: string): void {
    if (this.#worker !== worker) return
    this.#worker = undefined
    if (this.#inFlight !== undefined)
      this.#settle({ type: 'failed', id: this.#inFlight.id, message })
  }

  #settle(answer: Committed): void {
    const batch = this.#inFlight
    if (batch === undefined || batch.id !== answer.id) return
    this.#inFlight = undefined
    let retry = true
    if (answer.type === 'committed') {
      this.#commits++
      this.#durable = batch.upTo
      this.#release(batch.upTo)
      if (answer.pruned > 0) this.#onCommitted(answer.pruned)
    } else {
      // The writes stay queued, in order, since the remembered configuration in memory includes
      // them: the next commit tries them again. Only those who waited for them hear of the failure.
      this.#pending = [...batch.writes, ...this.#pending]
      const error = new StoreError(
        'COMMIT_FAILED',
        `cannot save to ${this.#path}: ${answer.message}`,
      )
      this.#release(batch.upTo, error)
      retry = this.#waiters.length > 0
    }
    if (retry && this.#pending.length > 0) this.#send()
    else this.#worker?.unref()
  }

  #release(upTo: number, error?: Error): void {
    let count = 0
    while (count < this.#waiters.length && this.#waiters[count]!.upTo <= upTo) count++
    for (const waiter of this.#waiters.splice(0, count))
      if (error === undefined) waiter.resolve()
      else waiter.reject(error)
  }
}
