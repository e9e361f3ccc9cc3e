// SIGKILL in the middle of 200 concurrent writes: every acknowledged write is there, each change
// with its journal entry or neither, and the database is sound and opens as usual.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DATABASE_FILE, openStore } from '../../src/store/store.ts'
import { withTempDir } from './temp-dir.ts'

const WRITER = new URL('./crash-writer.ts', import.meta.url).pathname

test('after SIGKILL mid-write, the acknowledged writes are all there and nothing is half-done', () =>
  withTempDir(async (dir) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const acknowledged = new Set<number>()
    // Killed once 130 of the 8 writers' one-after-the-other changes are in: others are under way.
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (/^\d+$/.test(line)) acknowledged.add(Number(line))
      if (acknowledged.size === 130) child.kill('SIGKILL')
    })
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null]
    assert.equal([code, signal], [null, 'SIGKILL'])
    assert.ok(acknowledged.size >= 130, `${acknowledged.size} acknowledged`)

    const raw = new Database(join(dir, DATABASE_FILE)) // recovers the write-ahead log
    try {
      assert.is(raw.pragma('integrity_check', { simple: true }), 'ok')
    } finally {
      raw.close()
    }
    const store = openStore(dir)
    try {
      const entries = await store.journalQuery({ limit: 1000 })
      const journaled = new Set(entries.map((entry) => Number(entry.requestId)))
      for (const n of acknowledged) assert.ok(journaled.has(n), `change ${n} was acknowledged`)
      // Each vf's configuration is its last journaled change: no change without its entry.
      const { vfs } = store.remembered()
      for (let clientId = 0; clientId < 8; clientId++) {
        const last = Math.max(...[...journaled].filter((n) => n % 8 === clientId))
        assert.equal(vfs[String(clientId)], { components: [], change: last }, `vf ${clientId}`)
      }
      assert.is(store.revision(), journaled.size, 'every change was new: one revision each')
    } finally {
      await store.close()
    }
  }))

test.run()
