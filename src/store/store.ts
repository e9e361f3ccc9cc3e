// What one host remembers, in its state directory: each process's configuration, the change
// journal and a few values, in one SQLite database (WAL, each commit's log fsynced) that one
// controller holds.
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { DATABASE_FILE, openDatabase } from './database.ts'
import { GroupCommit, type CommitStats } from './group-commit.ts'
import { JournalReader, journalWrite } from './journal.ts'
import type { JournalEntry, JournalQuery, JournalRecord } from './journal.ts'
import { lockStateDir, type StateDirLock } from './lock.ts'
import { NODE_MACHINE, type StoreMachine } from './machine.ts'
import { RememberedConfigs } from './remembered.ts'
import type { ProcessKey, RememberedConfig, RememberedDocument } from './remembered.ts'
import { ensureStateDir } from './state-dir.ts'
import { StoreError } from './store-error.ts'

export { DATABASE_FILE } from './database.ts'
export type { CommitStats } from './group-commit.ts'
export type { JournalCommand, JournalEntry, JournalQuery, JournalRecord } from './journal.ts'
export type { ProcessKey, RememberedConfig, RememberedDocument } from './remembered.ts'
export { StoreError, type StoreErrorCode } from './store-error.ts'

/** How long journal entries are kept unless told otherwise (--journal-keep DAYS). */
export const DEFAULT_JOURNAL_KEEP_DAYS = 30
const DAY_MS = 86_400_000
const REVISION = 'store.revision'

/** How the store keeps its journal. */
export type StoreOptions = {
  /** Entries older than this are removed at open and then periodically; Infinity keeps all. */
  journalKeepMs?: number
  /** How often the periodic prune looks for old entries (default: hourly). */
  pruneEveryMs?: number
  /** Told how many entries a prune removed (when it removed any). */
  onPrune?: (removed: number) => void
  /** Told once when a sync of the log failed: from then on, no change is saved (GroupCommit). */
  onBroken?: (error: StoreError) => void
  /** The log's file, the time and timers, where a test gives its own (node's otherwise). */
  machine?: Partial<StoreMachine>
}

/** Opens (creating, migrating and locking) the store of a state directory; throws a StoreError. */
export function openStore(dir: string, options: StoreOptions = {}): Store {
  ensureStateDir(dir)
  const lock = lockStateDir(dir)
  let db: Database.Database | undefined
  try {
    db = openDatabase(join(dir, DATABASE_FILE))
    return new Store(dir, lock, db, options)
  } catch (error) {
    db?.close()
    lock.release()
    if (error instanceof StoreError) throw error
    const message = `cannot open ${join(dir, DATABASE_FILE)}: ${(error as Error).message}`
    throw new StoreError('STATE_DIR_UNUSABLE', message, { cause: error })
  }
}

/**
 * The open store. Reads answer from memory and include every queued write; writes are queued and
 * become durable together (one transaction per group commit): `sync()` says when. Writes made in
 * one synchronous run (a put and the journal entry that records it) share one transaction.
 */
export class Store {
  /** The state directory. */
  readonly dir: string
  readonly #lock: StateDirLock
  readonly #db: Database.Database
  readonly #configs: RememberedConfigs
  readonly #meta: Map<string, string>
  readonly #journal: JournalReader
  readonly #commit: GroupCommit
  readonly #machine: StoreMachine
  readonly #stopPrune: (() => void) | undefined
  #revision: number
  #closed = false

  /** Use openStore(). */
  constructor(dir: string, lock: StateDirLock, db: Database.Database, options: StoreOptions) {
    const { journalKeepMs = DEFAULT_JOURNAL_KEEP_DAYS * DAY_MS, onPrune = () => {} } = options
    this.dir = dir
    this.#lock = lock
    this.#db = db
    this.#configs = new RememberedConfigs(db)
    const rows = db.prepare<[], [string, string]>('SELECT key, value FROM meta').raw().all()
    this.#meta = new Map(rows)
    this.#revision = Number(this.#meta.get(REVISION) ?? 0)
    this.#journal = new JournalReader(db)
    const machine = (this.#machine = { ...NODE_MACHINE, ...options.machine })
    this.#commit = new GroupCommit(db, onPrune, options.onBroken, machine)
    if (journalKeepMs === Infinity) return
    // At open, before anyone waits on a commit, a prune of its own (redone if a crash loses it).
    const removed = this.#commit.now([{ op: 'prune', before: machine.now() - journalKeepMs }])
    if (removed > 0) onPrune(removed)
    this.#stopPrune = machine.every(options.pruneEveryMs ?? DAY_MS / 24, () => {
      const before = machine.now() - journalKeepMs
      try {
        if (this.#journal.hasOlder(before)) this.#commit.push({ op: 'prune', before })
      } catch {
        // another connection was recovering the log (SQLITE_BUSY at once): next time, then
      }
    })
  }

  /** The remembered document (nfvs, vfs, mirrors, and primary when remembered), a fresh copy. */
  remembered(): RememberedDocument {
    return this.#configs.document()
  }

  /** One process's remembered configuration, or undefined. */
  recall(process: ProcessKey): RememberedConfig | undefined {
    return this.#configs.get(process)
  }

  /** Counts the changes to the remembered document, ever (persisted): an ETag for it. */
  revision(): number {
    return this.#revision
  }

  /** Remembers a process's configuration; undefined forgets the process. */
  put(process: ProcessKey, config: object | undefined): void {
    this.#assertOpen()
    const { clientId } = process
    if (clientId !== undefined && !(Number.isSafeInteger(clientId) && clientId >= 0))
      throw new TypeError(`a client id is a non-negative integer, not ${clientId}`)
    const write = this.#configs.put(process, config, this.#machine.now())
    if (write === undefined) return // the same configuration again: nothing to write
    this.#revision++
    this.#commit.push(write)
    this.#commit.push({ op: 'meta', key: REVISION, value: String(this.#revision) })
  }

  /** A value kept with putMeta(). */
  meta(key: string): string | undefined {
    return this.#meta.get(key)
  }

  /** Keeps a small value (undefined removes it); keys starting with `store.` are the store's. */
  putMeta(key: string, value: string | undefined): void {
    this.#assertOpen()
    if (key.startsWith('store.')) throw new TypeError(`${key}: keys starting with store. are kept`)
    if (value === undefined) this.#meta.delete(key)
    else this.#meta.set(key, value)
    this.#commit.push({ op: 'meta', key, value: value ?? null })
  }

  /** Records an accepted change in the journal. */
  journal(entry: JournalEntry): void {
    this.#assertOpen()
    this.#commit.push(journalWrite(entry, this.#machine.now()))
  }

  /** Journal entries, newest first, once the writes queued before the call were tried. */
  async journalQuery(query: JournalQuery): Promise<JournalRecord[]> {
    this.#assertOpen()
    const { limit } = query
    if (!(Number.isSafeInteger(limit) && limit >= 0))
      throw new TypeError(`a journal limit is a non-negative integer, not ${limit}`)
    await this.#commit.sync().catch(() => {}) // a failed commit is sync()'s to report
    this.#assertOpen()
    return this.#journal.query(query)
  }

  /** Removes journal entries older than `olderThanMs`; resolves once that is committed. */
  pruneJournal(olderThanMs: number): Promise<void> {
    this.#assertOpen()
    this.#commit.push({ op: 'prune', before: this.#machine.now() - olderThanMs })
    return this.#commit.sync()
  }

  /** Resolves once every write queued before the call is durable; rejects if its commit failed. */
  sync(): Promise<void> {
    if (this.#closed) return Promise.reject(closed())
    return this.#commit.sync()
  }

  /** Commit counters. */
  stats(): CommitStats {
    return this.#commit.stats()
  }

  /** Commits what is queued, closes the database, releases the lock. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#stopPrune?.()
    try {
      await this.#commit.close()
    } finally {
      this.#db.close()
      this.#lock.release()
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw closed()
  }
}

const closed = () => new StoreError('STORE_CLOSED', 'the store is closed')
