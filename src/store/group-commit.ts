// Group commit: writes queue, and everything queued while the previous commit was being made
// durable goes into the next one, so that many writers share one transaction and one fsync. The
// transaction runs on the main thread with synchronous=NORMAL (its page writes land in the page
// cache; no fsync inside), then an fdatasync of the write-ahead log runs on libuv's thread pool,
// and a write counts as durable only when that returns: the durability of synchronous=FULL, which
// is NORMAL plus this one sync of the log after each commit, and the event loop never waits on it.
// The checkpoints SQLite makes after 1000 pages of log do run on the main thread, syncs included
// (about 0.8 ms every 50 or so commits here; docs/remember.md).
import { closeSync, realpathSync } from 'node:fs'
import type Database from 'better-sqlite3'
import type { Write } from './batch.ts'
import { NODE_MACHINE, type StoreMachine } from './machine.ts'
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
  readonly #machine: StoreMachine
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

  constructor(
    db: Database.Database,
    onCommitted: (pruned: number) => void,
    onBroken: (error: StoreError) => void = () => {},
    machine: StoreMachine = NODE_MACHINE,
  ) {
    this.#db = db
    this.#commit = prepareWrites(db)
    this.#onCommitted = onCommitted
    this.#onBroken = onBroken
    this.#machine = machine
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
    this.#delayed = this.#machine.after(COMPANY_WAIT_MS, () => {
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
      this.#log ??= this.#machine.openLog(`${realpathSync(this.#db.name)}-wal`)
      pruned = this.#commit(writes) // rolled back if it throws
    } catch (error) {
      // The writes stay queued, in order, since the remembered configuration in memory includes
      // them: the next commit tries them again. Only those who waited for them hear of the failure.
      this.#release(upTo, this.#failure(error))
      return
    }
    this.#pending = []
    this.#syncing = true
    this.#machine.syncLog(this.#log, (error) => {
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
