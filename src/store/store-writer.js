// @ts-check
// The writer thread: commits each batch it is sent as one transaction (fsync included), so that
// the controller's event loop never waits on the disk. Plain JavaScript: see writes.js.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { prepareWrites } from './writes.js'

/** @typedef {import('./batch.ts').ToWriter} ToWriter */
/** @typedef {import('./batch.ts').Committed} Committed */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
const db = new Database(/** @type {{ path: string }} */ (workerData).path, { timeout: 5000 })
// SQLite's page cache grows to 16 MB per connection as better-sqlite3 builds it; the writer touches
// the right edges of its indexes and the remembered rows: 2 MiB is plenty, and bounds the memory.
db.pragma('cache_size = -2048')
const commit = prepareWrites(db)

port.on('message', (/** @type {ToWriter} */ message) => {
  if (message.type === 'close') {
    db.close()
    port.close() // nothing else keeps this thread alive: it ends
    return
  }
  /** @type {Committed} */
  let answer
  try {
    answer = { type: 'committed', id: message.id, pruned: commit(message.writes) }
  } catch (error) {
    const { message: text, code } = /** @type {Error & { code?: string }} */ (error)
    answer = { type: 'failed', id: message.id, message: text, ...(code ? { code } : {}) }
  }
  port.postMessage(answer)
})
