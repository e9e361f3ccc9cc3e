// The state database's schema: an ordered list of migrations, the version in PRAGMA user_version.
import type Database from 'better-sqlite3'
import { StoreError } from './store-error.ts'

/**
 * Migration N takes a database from version N-1 to N. Never edit one that has shipped: a database
 * written by it exists somewhere. Add the next one instead (test/store/v1.sql keeps version 1).
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the remembered configuration, one row per process (the primary, having no client id, is 0),
  // and the store's own small values (keys starting with `store.` are the store's).
  `CREATE TABLE process_config (
     section TEXT NOT NULL CHECK (section IN ('nfvs', 'vfs', 'mirrors', 'primary')),
     client_id INTEGER NOT NULL CHECK (section <> 'primary' OR client_id = 0),
     config TEXT NOT NULL CHECK (json_valid(config)),
     updated INTEGER NOT NULL, -- ms since the epoch
     PRIMARY KEY (section, client_id)
   ) WITHOUT ROWID;
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,
  // 2: the journal of accepted changes, read newest first (by time, then id). An entry touches one
  // process or more, so the processes have their own table, with the time, so that "this process's
  // changes since T, newest first" is one index range.
  `CREATE TABLE journal (
     id INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused, even after a prune emptied the table
     time INTEGER NOT NULL, -- ms since the epoch
     by TEXT NOT NULL,
     request_id TEXT NOT NULL,
     method TEXT NOT NULL,
     path TEXT NOT NULL,
     body TEXT CHECK (body IS NULL OR json_valid(body)),
     commands TEXT NOT NULL CHECK (json_valid(commands)),
     status INTEGER NOT NULL
   );
   CREATE INDEX journal_time ON journal (time);
   CREATE INDEX journal_by ON journal (by, time);
   CREATE TABLE journal_process (
     process TEXT NOT NULL,
     time INTEGER NOT NULL, -- the entry's
     entry INTEGER NOT NULL REFERENCES journal (id) ON DELETE CASCADE,
     PRIMARY KEY (process, time, entry)
   ) WITHOUT ROWID;
   CREATE INDEX journal_process_entry ON journal_process (entry);`,
  // 3: the revisions of the remembered configuration: the whole document after each change, who
  // made it and what it did, numbered from 1 (never reused: the newest is never pruned).
  `CREATE TABLE revision (
     rev INTEGER PRIMARY KEY,
     time INTEGER NOT NULL, -- ms since the epoch
     by TEXT NOT NULL,
     request_id TEXT NOT NULL,
     what TEXT NOT NULL, -- change, apply, rollback, undo, expired
     to_rev INTEGER, -- a rollback's revision
     summary TEXT NOT NULL CHECK (json_valid(summary)),
     document TEXT NOT NULL CHECK (json_valid(document))
   );
   CREATE INDEX revision_time ON revision (time);`,
]

/** The schema version this controller writes. */
export const SCHEMA_VERSION = MIGRATIONS.length

/**
 * Brings the database up to `target` (default: the latest), each migration in its own transaction
 * with its version number, so a crash leaves the database at one version or the next. Refuses a
 * database from a newer controller rather than writing into a schema it does not know.
 */
export function migrate(db: Database.Database, target = SCHEMA_VERSION): number {
  const version = db.pragma('user_version', { simple: true }) as number
  if (version > SCHEMA_VERSION)
    throw new StoreError(
      'SCHEMA_TOO_NEW',
      `${db.name} has schema version ${version}; this spp-ctl knows up to ${SCHEMA_VERSION}`,
    )
  for (let next = version + 1; next <= target; next++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[next - 1]!)
      db.pragma(`user_version = ${next}`)
    }).immediate()
  }
  return Math.max(version, target)
}
