// Group commit: writes queue, and everything queued while the previous commit was being made
// durable goes into the next one, so that many writers share one transaction and one fsync. The
// transaction runs on the main thread with synchronous=NORMAL (its page writes land in the page
// cache; no fsync inside), then an fdatasync of the write-ahead log runs on libuv's thread pool,
// and a write counts as durable only when that returns: the durability of synchronous=FULL, which
// is NORMAL plus this one sync of the log after each commit, and the event loop never waits on it.
// The checkpoints SQLite makes after 1000 pages of log do run on the main thread, syncs included
// (about 0.8 ms every 50 or so commits here; docs/remember.md).
import { closeSync, fdatasync, openSync, realpathSync } from 'node:fs'
import type Database from 'better-sqlite3'
import type { Write } from './batch.ts'
import { StoreError } from './store-error.ts'
import { prepareWrites } from './writes.ts'

/**
 * How long a commit may wait for company: when writes came in during the last sync but fewer
 * writers than that commit released, the next waits (up to this) for as many, so that many
 * concurrent writers share each commit's CPU. A writer alone since the last commit never waits,
 * but one that comes during the sync of a commit shared by several waits for the others. PUT x64
 * with a state directory on two cores: none 3379-3446/s, 2 ms 4471-4678, 4 ms 4780-5372, 8 ms
 * 5678; at 16 connections 4 ms beat 8 (docs/remember.md).
 */
const COMPANY_WAIT_MS = 4
/** How long the prune at open waits for another connection's write lock (as the migrations do). */
const OPEN_BUSY_MS = 5000
type Waiter = { upTo: number; resolve: () => void; reject: (error: Error) => void }

/** How the write-ahead log is opened and made durable: node's fs, unless a test holds them. */
export type LogFile = {
  /** Opens the log for its syncs (node: openSync(path, 'r+')). */
  open(path: string): number
  /** Makes what was written to the log durable, then calls `done` (node: fdatasync, off the loop). */
  sync(fd: number, done: (error: NodeJS.ErrnoException | null) => void): void
}

/** The time the store reads and the timers it sets: node's, unless a test holds them. */
export type StoreClock = {
  /** Milliseconds since the epoch (node: Date.now). */
  now(): number
  /** Calls `callback` once, after `ms`; returns how to cancel it (node: setTimeout). */
  after(ms: number, callback: () => void): () => void
  /** Calls `callback` every `ms`, never keeping node running; returns how to stop (setInterval). */
  every(ms: number, callback: () => void): () => void
}

export const NODE_LOG_FILE: LogFile = {
  open: (path) => openSync(path, 'r+'),
  sync: (fd, done) => fdatasync(fd, done),
}

export const NODE_CLOCK: StoreClock = {
  now: () => Date.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms)
    return () => clearTimeout(timer)
  },
  every(ms, callback) {
    const timer = setInterval(callback, ms).unref()
    return () => clearInterval(timer)
  },
}

/** What a GroupCommit tells, and what it uses of the machine. */
export type GroupCommitOptions = {
  /** Told how many journal entries a commit's prunes removed (when it removed any). */
  onCommitted: (pruned: number) => void
  /** Told once when a sync of the log failed. */
  onBroken?: (error: StoreError) => void
  logFile?: LogFile
  clock?: StoreClock
}

/** Counters for tests and measurements. */
export type CommitStats = { commits: number; writes: number }

/**
 * The queue of writes. Writes are counted from the first, so that "everything queued before this
 * call" is a number, and durability is reached in that order.
 */
export class GroupCommit {
  readonly #db: Database.Database
  readonly #commit: (writes: Write[]) => number
  readonly #onCommitted: (pruned: number) => void
  readonly #onBroken: (error: StoreError) => void
  readonly #logFile: LogFile
  readonly #clock: StoreClock
  #log: number | undefined // the write-ahead log's descriptor, opened at the first commit
  #pending: Write[] = []
  #queued = 0
  #durable = 0
  #syncing = false // a commit's fdatasync is under way
  #waiters: Waiter[] = [] // in the order of upTo, since each one waits for all that was queued
  #scheduled = false
  #delayed: (() => void) | undefined // cancels the next commit, waiting for company
  #company = 0 // how many waited for the last commit
  #commits = 0
  // Set when an fdatasync of the log failed. Linux reports a failed writeback once and marks its
  // pages clean, so a later fdatasync that succeeds does not mean the earlier frames are on the
  // disk: nothing is acknowledged as durable any more, until the controller is restarted.
  #broken: StoreError | undefined

  constructor(db: Database.Database, options: GroupCommitOptions) {
    this.#db = db
    this.#commit = prepareWrites(db)
    this.#onCommitted = options.onCommitted
    this.#onBroken = options.onBroken ?? (() => {})
    this.#logFile = options.logFile ?? NODE_LOG_FILE
    this.#clock = options.clock ?? NODE_CLOCK
  }

  /** Queues a write; it is committed with the others of this event-loop turn, or after. */
  push(write: Write): void {
    this.#queued++
    if (this.#broken) return // never to be saved: sync() refuses it, and it is not kept
    this.#pending.push(write)
    this.#schedule()
  }

  /** Resolves once every write queued before the call is durable; rejects if its commit failed. */
  sync(): Promise<void> {
    if (this.#durable >= this.#queued) return Promise.resolve()
    if (this.#broken) return Promise.reject(this.#broken)
    return new Promise((resolve, reject) => {
      this.#waiters.push({ upTo: this.#queued, resolve, reject })
      if (this.#delayed !== undefined && this.#waiters.length >= this.#company) this.#hurry()
      else this.#schedule() // writes left by a failed commit are tried again when someone waits
    })
  }

  /**
   * Commits `writes` at once, outside the group and with no sync: for the prune at open, which
   * (unlike a commit while serving) may wait a while for another connection's lock.
   */
  now(writes: Write[]): number {
    this.#db.pragma(`busy_timeout = ${OPEN_BUSY_MS}`)
    try {
      return this.#commit(writes)
    } finally {
      this.#db.pragma('busy_timeout = 0')
    }
  }

  /** Commits what is queued, then closes the log's descriptor (the database stays open). */
  async close(): Promise<void> {
    try {
      await this.sync()
    } finally {
      if (this.#log !== undefined) closeSync(this.#log)
      this.#log = undefined
    }
  }

  stats(): CommitStats {
    return { commits: this.#commits, writes: this.#durable }
  }

  // One commit per turn at most: the writes of this turn's callbacks go together.
  #schedule(): void {
    if (this.#scheduled || this.#syncing || this.#broken) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      this.#send()
    })
  }

  #delay(): void {
    if (this.#scheduled || this.#syncing || this.#broken) return
    this.#scheduled = true
    this.#delayed = this.#clock.after(COMPANY_WAIT_MS, () => {
      this.#delayed = undefined
      this.#scheduled = false
      this.#send()
    })
  }

  #hurry(): void {
    this.#delayed?.()
    this.#delayed = undefined
    this.#scheduled = false
    this.#schedule()
  }

  #send(): void {
    if (this.#syncing || this.#pending.length === 0) return
    const writes = this.#pending
    const upTo = this.#durable + writes.length
    let pruned: number
    try {
      // Opened first: a commit made is never tried again. The connection has read, so it exists,
      // beside the file a symbolic link names, as SQLite resolves the database's name.
      this.#log ??= this.#logFile.open(`${realpathSync(this.#db.name)}-wal`)
      pruned = this.#commit(writes) // rolled back if it throws
    } catch (error) {
      // The writes stay queued, in order, since the remembered configuration in memory includes
      // them: the next commit tries them again. Only those who waited for them hear of the failure.
      this.#release(upTo, this.#failure(error))
      return
    }
    this.#pending = []
    this.#syncing = true
    this.#logFile.sync(this.#log, (error) => {
      this.#syncing = false
      if (error) {
        // Committed, but perhaps never on the disk: its waiters and every later one hear of it.
        this.#broken = this.#failure(
          error,
          'the log could not be synced, so no change is saved until the controller restarts',
        )
        this.#pending = []
        this.#release(Infinity, this.#broken)
        this.#onBroken(this.#broken)
      } else {
        this.#durable = upTo
        this.#commits++
        this.#company = this.#release(upTo)
        if (this.#pending.length > 0)
          if (this.#waiters.length < this.#company) this.#delay()
          else this.#schedule()
      }
      if (pruned > 0) this.#onCommitted(pruned) // in the database either way
    })
  }

  #failure(error: unknown, then?: string): StoreError {
    const message = (error as Error).message
    const text = `cannot save to ${this.#db.name}: ${message}${then ? `; ${then}` : ''}`
    return new StoreError('COMMIT_FAILED', text, { cause: error })
  }

  #release(upTo: number, error?: Error): number {
    let count = 0
    while (count < this.#waiters.length && this.#waiters[count]!.upTo <= upTo) count++
    for (const waiter of this.#waiters.splice(0, count))
      if (error === undefined) waiter.resolve()
      else waiter.reject(error)
    return count
  }
}
