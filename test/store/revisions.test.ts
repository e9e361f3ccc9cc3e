// The revisions: one per change remembered, in its transaction, with the whole document; a group's
// changes in a row share one; kept as long as the journal, the newest always.
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DATABASE_FILE, openStore, type JournalEntry, type Store } from '../../src/store/store.ts'
import { withTempDir } from './temp-dir.ts'

const HOUR = 3_600_000
const VF2 = { section: 'vfs', clientId: 2 } as const
const NFV1 = { section: 'nfvs', clientId: 1 } as const

const entry = (by: string, requestId: string, time?: number): JournalEntry => ({
  ...(time === undefined ? {} : { time }),
  by,
  requestId,
  method: 'PUT',
  path: '/v1/x',
  commands: [],
  status: 204,
  processes: [],
})

const withStore = (body: (store: Store, dir: string) => Promise<void>) =>
  withTempDir(async (dir) => {
    const store = openStore(dir, { journalKeepMs: Infinity })
    try {
      await body(store, dir)
    } finally {
      await store.close().catch(() => {})
    }
  })

test('a change remembered makes a revision with its document; a journal entry alone makes none', () =>
  withStore(async (store) => {
    assert.equal(await store.history(10), [])
    store.put(VF2, { components: [] })
    store.journal(entry('alice', 'r1'), { summary: { 'component.start': 1 } })
    store.journal(entry('bob', 'r2')) // nothing put since: no revision
    store.put(NFV1, { status: 'Idle', ports: [], patches: [] })
    store.put(VF2, undefined)
    store.journal(entry('bob', 'r3'))
    const history = await store.history(10)
    assert.equal(
      history.map(({ rev, by, requestId, what, summary }) => [rev, by, requestId, what, summary]),
      [
        [2, 'bob', 'r3', 'change', { remember: 1, forget: 1 }],
        [1, 'alice', 'r1', 'change', { 'component.start': 1 }],
      ],
    )
    assert.equal((await store.revisionAt(1))!.document, {
      nfvs: {},
      vfs: { '2': { components: [] } },
      mirrors: {},
    })
    assert.equal((await store.revisionAt(2))!.document, store.remembered())
    assert.is(await store.revisionAt(3), undefined)
    assert.equal(
      (await store.history(1)).map((r) => r.rev),
      [2],
    )
  }))

test("a group's changes in a row share one revision; a change between them starts another", () =>
  withStore(async (store) => {
    const apply = { by: 'ops', requestId: 'a1', what: 'apply' as const, group: 'a1' }
    store.put(VF2, { components: [1] })
    store.journal(entry('apply a1', 'a1.1'), { ...apply, summary: { 'component.start': 1 } })
    store.put(VF2, { components: [2] })
    store.journal(entry('apply a1', 'a1.2'), { ...apply, summary: { 'port.attach': 1 } })
    store.put(NFV1, { status: 'Running' })
    store.journal(entry('carol', 'c1'))
    store.put(VF2, { components: [3] })
    store.journal(entry('apply a1', 'a1.3'), { ...apply, summary: { 'port.attach': 1 } })
    const history = await store.history(10)
    assert.equal(
      history.map(({ rev, by, what, summary }) => [rev, by, what, summary]),
      [
        [3, 'ops', 'apply', { 'port.attach': 1 }],
        [2, 'carol', 'change', { remember: 1 }],
        [1, 'ops', 'apply', { 'component.start': 1, 'port.attach': 1 }],
      ],
    )
    assert.equal((await store.revisionAt(1))!.document.vfs, { '2': { components: [2] } })
    assert.equal((await store.revisionAt(3))!.document.nfvs, { '1': { status: 'Running' } })
  }))

test('a rollback says which revision it went back to; numbers go on after a reopen', () =>
  withTempDir(async (dir) => {
    const store = openStore(dir, { journalKeepMs: Infinity })
    store.put(VF2, { components: [] })
    store.journal(entry('alice', 'r1'))
    await store.close()
    const reopened = openStore(dir, { journalKeepMs: Infinity })
    try {
      reopened.put(VF2, { components: [9] })
      reopened.journal(entry('alice', 'r2'), { what: 'rollback', to: 1 })
      const [newest] = await reopened.history(1)
      assert.equal(
        { ...newest, time: 0 },
        {
          rev: 2,
          time: 0,
          by: 'alice',
          requestId: 'r2',
          what: 'rollback',
          to: 1,
          summary: { remember: 1 },
        },
      )
    } finally {
      await reopened.close()
    }
  }))

test('the revision is committed in the transaction of its change, or neither is', () =>
  withStore(async (store, dir) => {
    const other = new Database(join(dir, DATABASE_FILE))
    try {
      other.exec(`CREATE TRIGGER refuse BEFORE INSERT ON revision
                  BEGIN SELECT RAISE(ABORT, 'refused (test)'); END`)
      store.put(VF2, { components: [] })
      store.journal(entry('alice', 'r1'))
      await store.sync().then(
        () => assert.unreachable('the commit should fail'),
        () => {},
      )
      const count = (table: string) =>
        (other.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
      assert.is(count('process_config'), 0, 'the change went with its revision')
      assert.is(count('journal'), 0)
      other.exec('DROP TRIGGER refuse')
      await store.sync()
      assert.equal([count('process_config'), count('journal'), count('revision')], [1, 1, 1])
    } finally {
      other.close()
    }
  }))

test('revisions are pruned with the journal, except the newest', () =>
  withStore(async (store) => {
    const now = Date.now()
    for (const [hours, config] of [
      [3, 1],
      [2, 2],
    ] as const) {
      store.put(VF2, { components: [config] })
      store.journal(entry('a', `r${hours}`, now - hours * HOUR))
    }
    await store.pruneJournal(HOUR)
    assert.equal(
      (await store.history(10)).map((r) => r.rev),
      [2],
      'the newest stays, however old',
    )
    store.put(VF2, { components: [3] })
    store.journal(entry('a', 'r0', now))
    await store.pruneJournal(HOUR)
    assert.equal(
      (await store.history(10)).map((r) => r.rev),
      [3],
    )
  }))

test.run()
