// @ts-check
// Applies a batch of writes as one transaction. Plain JavaScript because it also runs in the writer
// thread, which node 20 cannot start from a .ts file under tsx (tests) or the bundle (dist/).

/** @typedef {import('./batch.ts').Write} Write */

/**
 * Opens the statements the writes need on `db` and returns the function that commits a batch of
 * them as one transaction; it answers how many journal entries the batch's prunes removed.
 * @param {import('better-sqlite3').Database} db
 * @returns {(writes: Write[]) => number}
 */
export function prepareWrites(db) {
  // Settings of the connection, not of the file. FULL: each commit fsyncs the write-ahead log, so
  // a commit that returned survives a power cut; WAL's default (NORMAL) may lose the last ones.
  db.pragma('synchronous = FULL')
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

  /** @param {Write} write */
  const apply = (write) => {
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
      case 'prune':
        return prune.run(write.before).changes
    }
  }
  return db.transaction((/** @type {Write[]} */ writes) => {
    let pruned = 0
    for (const write of writes) pruned += apply(write)
    return pruned
  })
}
