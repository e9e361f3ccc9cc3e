// Applies a batch of writes as one transaction.
import type Database from 'better-sqlite3'
import type { Write } from './batch.ts'

/**
 * Opens the statements the writes need on `db` and returns the function that commits a batch of
 * them as one transaction; it answers how many journal entries the batch's prunes removed.
 */
export function prepareWrites(db: Database.Database): (writes: Write[]) => number {
  // A setting of the connection, not of the file. NORMAL: a commit does not fsync the write-ahead
  // log; GroupCommit does, after the commit and off the event loop, before anyone hears of it.
  db.pragma('synchronous = NORMAL')
  // A commit runs on the main thread: it never sleeps there for another connection's lock (an
  // operator's sqlite3, say). It fails at once (SQLITE_BUSY), and its writes are tried again.
  db.pragma('busy_timeout = 0')
  // The journal's processes go when their entry goes (ON DELETE CASCADE), if this is on.
  db.pragma('foreign_keys = ON')
  const putConfig = db.prepare(
    `INSERT INTO process_config (section, client_id, config, updated) VALUES (?, ?, ?, ?)
     ON CONFLICT (section, client_id) DO UPDATE SET config = excluded.config, updated = excluded.updated`,
  )
  const forgetConfig = db.prepare('DELETE FROM process_config WHERE section = ? AND client_id = ?')
  const putMeta = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  )
  const forgetMeta = db.prepare('DELETE FROM meta WHERE key = ?')
  const journal = db.prepare(
    `INSERT INTO journal (time, by, request_id, method, path, body, commands, status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const touched = db.prepare('INSERT INTO journal_process (process, time, entry) VALUES (?, ?, ?)')
  const prune = db.prepare('DELETE FROM journal WHERE time < ?')
  // A revision a later change of its group adds to is written again, whole.
  const revise = db.prepare(
    `INSERT INTO revision (rev, time, by, request_id, what, to_rev, summary, document)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (rev) DO UPDATE SET time = excluded.time, summary = excluded.summary,
       document = excluded.document`,
  )
  // Revisions go with the journal, except the newest: the document as it is now is always kept.
  const pruneRevisions = db.prepare(
    'DELETE FROM revision WHERE time < ? AND rev < (SELECT max(rev) FROM revision)',
  )

  const apply = (write: Write): number => {
    switch (write.op) {
      case 'config':
        if (write.config === null) forgetConfig.run(write.section, write.clientId)
        else putConfig.run(write.section, write.clientId, write.config, write.time)
        return 0
      case 'meta':
        if (write.value === null) forgetMeta.run(write.key)
        else putMeta.run(write.key, write.value)
        return 0
      case 'journal': {
        const { time, by, requestId, method, path, body, commands, status } = write
        const entry = journal.run(time, by, requestId, method, path, body, commands, status)
        for (const process of write.processes) touched.run(process, time, entry.lastInsertRowid)
        return 0
      }
      case 'revision': {
        const { rev, time, by, requestId, what, to, summary, document } = write
        revise.run(rev, time, by, requestId, what, to, summary, document)
        return 0
      }
      case 'prune':
        pruneRevisions.run(write.before)
        return prune.run(write.before).changes
    }
  }
  return db.transaction((writes: Write[]) => {
    let pruned = 0
    for (const write of writes) pruned += apply(write)
    return pruned
  })
}
