// One controller per state directory: an exclusive SQLite lock that the kernel drops when we die.
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { sqlite } from './sqlite.ts'
import { StoreError } from './store-error.ts'

/** The file whose lock says the state directory is in use (an empty SQLite database). */
export const LOCK_FILE = 'spp-ctl.lock'

/** A held state directory; release() lets the next controller in. */
export type StateDirLock = { release: () => void }

/**
 * Takes the state directory's lock, or throws STATE_DIR_LOCKED at once. The lock is an open
 * exclusive transaction on an empty database, that is, a POSIX record lock: unlike a pid file, a
 * controller that is killed (even with SIGKILL) leaves nothing stale behind.
 */
export function lockStateDir(dir: string): StateDirLock {
  const path = join(dir, LOCK_FILE)
  let db: Database.Database
  try {
    db = new (sqlite())(path, { timeout: 0 })
  } catch (error) {
    throw unusable(path, error)
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    db.close()
    if ((error as { code?: string }).code === 'SQLITE_BUSY')
      throw new StoreError(
        'STATE_DIR_LOCKED',
        `state directory ${dir} is in use by another spp-ctl`,
      )
    throw unusable(path, error)
  }
  return {
    release: () => {
      if (db.open) db.close() // closing rolls the empty transaction back and drops the lock
    },
  }
}

const unusable = (path: string, error: unknown) =>
  new StoreError('STATE_DIR_UNUSABLE', `cannot open ${path}: ${(error as Error).message}`, {
    cause: error,
  })
