// The connection that commits: no fsync inside a commit (the group commit syncs the log after it,
// off the event loop) and the journal's cascade.
import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { migrate } from '../../src/store/schema.ts'
import { prepareWrites } from '../../src/store/writes.ts'

test('the committing connection leaves the sync to the group commit and deletes an entry with its processes', () => {
  const db = new Database(':memory:')
  try {
    migrate(db)
    db.pragma('synchronous = OFF')
    db.pragma('foreign_keys = OFF')
    const commit = prepareWrites(db)
    assert.is(db.pragma('synchronous', { simple: true }), 1, 'NORMAL')
    // A commit runs on the main thread: it must not sleep there for another connection's lock.
    assert.is(db.pragma('busy_timeout', { simple: true }), 0)
    assert.is(db.pragma('foreign_keys', { simple: true }), 1)
    const journal = { op: 'journal' as const, by: 'a', requestId: '1', method: 'PUT', path: '/' }
    commit([
      {
        ...journal,
        time: 1,
        body: null,
        commands: '[]',
        status: 204,
        processes: ['vf:2', 'nfv:1'],
      },
    ])
    assert.is(commit([{ op: 'prune', before: 2 }]), 1, 'one entry pruned')
    assert.is(db.prepare('SELECT count(*) FROM journal_process').pluck().get(), 0)
  } finally {
    db.close()
  }
})

test.run()
