// The state database's connection: WAL, migrated to the latest schema (the migrations with
// synchronous=FULL; the group commit then commits with NORMAL and syncs the log itself).
import type Database from 'better-sqlite3'
import { migrate } from './schema.ts'
import { sqlite } from './sqlite.ts'
import { StoreError } from './store-error.ts'

/** The database file in the state directory (with its -wal and -shm files beside it). */
export const DATABASE_FILE = 'spp-ctl.db'

/** Opens the database (creating it) and migrates it; throws a StoreError. */
export function openDatabase(file: string): Database.Database {
  let db: Database.Database | undefined
  try {
    db = new (sqlite())(file, { timeout: 5000 })
    // WAL: a commit appends to the log, and is made durable by one fsync of the log (GroupCommit's).
    if (db.pragma('journal_mode = WAL', { simple: true }) !== 'wal')
      throw new Error('the file system does not support write-ahead logging')
    db.pragma('synchronous = FULL')
    db.pragma('cache_size = -2048') // 2 MiB, not better-sqlite3's 16 MB: it reads little
    migrate(db)
    return db
  } catch (error) {
    db?.close()
    if (error instanceof StoreError) throw error
    throw new StoreError('STATE_DIR_UNUSABLE', `cannot open ${file}: ${(error as Error).message}`, {
      cause: error,
    })
  }
}
