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
import { addSummaries, RevisionReader, revisionWrite } from './revisions.ts'
import type { Revision, RevisionNote, RevisionWithDocument } from './revisions.ts'
import { ensureStateDir } from './state-dir.ts'
import { StoreError } from './store-error.ts'

export { DATABASE_FILE } from './database.ts'
export type { CommitStats } from './group-commit.ts'
export type {
  JournalCommand,
  JournalEntry,
  JournaledRequest,
  JournalQuery,
  JournalRecord,
} from './journal.ts'
export type { ProcessKey, RememberedConfig, RememberedDocument } from './remembered.ts'
export type { Revision, RevisionKind, RevisionNote, RevisionWithDocument } from './revisions.ts'
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
  readonly #revisions: RevisionReader
  readonly #commit: GroupCommit
  readonly #machine: StoreMachine
  readonly #stopPrune: (() => void) | undefined
  #revision: number
  // The newest revision (and the group it is of), and the processes put since it was written.
  #newest: { revision: Revision; group?: string } | undefined
  #newestRev: number
  readonly #touched = new Map<string, 'remember' | 'forget'>()
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
    this.#revisions = new RevisionReader(db)
    this.#newestRev = this.#revisions.newest()
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
    this.#touched.set(`${process.section}/${clientId ?? 0}`, config ? 'remember' : 'forget')
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

  /**
   * Records an accepted change in the journal and, when the remembered document changed since the
   * last revision (put() in the same synchronous run: the same transaction), a revision of it.
   * Without a summary in `note`, the revision counts the processes remembered and forgotten.
   */
  journal(entry: JournalEntry, note: RevisionNote = {}): void {
    this.#assertOpen()
    const time = entry.time ?? this.#machine.now()
    this.#commit.push(journalWrite(entry, time))
    if (this.#touched.size === 0) return
    const counted: Record<string, number> = {}
    for (const done of this.#touched.values()) counted[done] = (counted[done] ?? 0) + 1
    this.#touched.clear()
    const { group, summary = counted } = note
    const newest = this.#newest
    const revision: Revision =
      newest && group !== undefined && newest.group === group
        ? { ...newest.revision, time, summary: addSummaries(newest.revision.summary, summary) }
        : {
            rev: ++this.#newestRev,
            time,
            by: note.by ?? entry.by,
            requestId: note.requestId ?? entry.requestId,
            what: note.what ?? 'change',
            ...(note.to === undefined ? {} : { to: note.to }),
            summary,
          }
    this.#newest = { revision, ...(group === undefined ? {} : { group }) }
    this.#commit.push(revisionWrite(revision, this.#configs.documentJson()))
  }

  /** The newest revisions, newest first, once the writes queued before the call were tried. */
  async history(limit: number): Promise<Revision[]> {
    await this.#tried()
    return this.#revisions.list(limit)
  }

  /** One revision with its document (undefined: none by that number is kept), as history(). */
  async revisionAt(rev: number): Promise<RevisionWithDocument | undefined> {
    await this.#tried()
    return this.#revisions.get(rev)
  }

  async #tried(): Promise<void> {
    this.#assertOpen()
    await this.#commit.sync().catch(() => {}) // a failed commit is sync()'s to report
    this.#assertOpen()
  }

  /** Journal entries, newest first, once the writes queued before the call were tried. */
  async journalQuery(query: JournalQuery): Promise<JournalRecord[]> {
    this.#assertOpen()
    const { limit } = query
    if (!(Number.isSafeInteger(limit) && limit >= 0))
      throw new TypeError(`a journal limit is a non-negative integer, not ${limit}`)
    await this.#tried()
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
