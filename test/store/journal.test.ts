// The journal: entries written with the change they record, read newest first with filters, pruned.
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { journalSql } from '../../src/store/journal.ts'
import { migrate } from '../../src/store/schema.ts'
import { DATABASE_FILE, openStore, type JournalEntry, type Store } from '../../src/store/store.ts'
import { withTempDir } from './temp-dir.ts'

const HOUR = 3_600_000
const T0 = Date.UTC(2026, 0, 1)

/** An entry for `processes` by `by` at T0 + `minutes`. */
const entry = (minutes: number, by: string, processes: string[]): JournalEntry => ({
  time: T0 + minutes * 60_000,
  by,
  requestId: `req-${minutes}`,
  method: 'PUT',
  path: `/v1/${processes[0] ?? 'x'}`,
  body: { minutes },
  commands: [{ line: `cmd ${minutes}`, outcome: 'ok' }],
  status: 204,
  processes,
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

const minutesOf = (store: Store, query: Parameters<Store['journalQuery']>[0]) =>
  store.journalQuery(query).then((records) => records.map((r) => (r.time - T0) / 60_000))

test('an entry reads back as written, with its id; without a body it has none', () =>
  withStore(async (store) => {
    const { body: _, ...bodyless } = entry(2, 'local', ['nfv:1'])
    store.journal(entry(1, 'alice', ['vf:2']))
    store.journal(bodyless)
    await store.sync()
    const [second, first] = await store.journalQuery({ limit: 10 })
    assert.equal(first, { id: 1, ...entry(1, 'alice', ['vf:2']) })
    assert.equal(second, { id: 2, ...bodyless })
  }))

test('newest first, by time and then by id, at most limit entries', () =>
  withStore(async (store) => {
    for (const minutes of [1, 3, 2, 5, 4]) store.journal(entry(minutes, 'a', ['vf:2']))
    store.journal(entry(5, 'b', ['vf:2'])) // same time as an earlier one: the later id first
    const records = await store.journalQuery({ limit: 3 })
    assert.equal(
      records.map((r) => [r.id, r.by]),
      [
        [6, 'b'],
        [4, 'a'],
        [5, 'a'],
      ],
    )
    assert.equal(await minutesOf(store, { limit: 0 }), [])
    for (const limit of [-1, 1.5])
      await store.journalQuery({ limit }).then(
        () => assert.unreachable(`limit ${limit} was taken`),
        (error: Error) => assert.match(error.message, /limit/),
      )
  }))

test('filters by process, by who, since a time, and together', () =>
  withStore(async (store) => {
    store.journal(entry(1, 'alice', ['vf:2']))
    store.journal(entry(2, 'bob', ['nfv:1']))
    store.journal(entry(3, 'alice', ['nfv:1', 'vf:2', 'vf:2'])) // an apply: two processes
    store.journal(entry(4, 'restore', ['vf:2']))
    store.journal(entry(5, 'bob', ['vf:3']))
    assert.equal(await minutesOf(store, { process: 'vf:2', limit: 10 }), [4, 3, 1])
    assert.equal(await minutesOf(store, { process: 'nfv:1', limit: 10 }), [3, 2])
    assert.equal(await minutesOf(store, { by: 'alice', limit: 10 }), [3, 1])
    assert.equal(await minutesOf(store, { since: T0 + 3 * 60_000, limit: 10 }), [5, 4, 3])
    assert.equal(await minutesOf(store, { process: 'vf:2', by: 'alice', limit: 10 }), [3, 1])
    const since = T0 + 2 * 60_000
    assert.equal(await minutesOf(store, { process: 'vf:2', since, limit: 10 }), [4, 3])
    assert.equal(await minutesOf(store, { by: 'bob', since, limit: 10 }), [5, 2])
    assert.equal(await minutesOf(store, { process: 'vf:2', by: 'alice', since, limit: 1 }), [3])
    assert.equal(await minutesOf(store, { process: 'pcap:9', limit: 10 }), [])
    const [apply] = await store.journalQuery({ process: 'nfv:1', by: 'alice', limit: 1 })
    assert.equal(apply!.processes.sort(), ['nfv:1', 'vf:2'], 'a process named twice is kept once')
  }))

test('every query walks an index, and none sorts', () => {
  const db = new Database(':memory:')
  try {
    migrate(db)
    for (const process of [undefined, 'vf:2'])
      for (const since of [undefined, T0])
        for (const by of [undefined, 'alice']) {
          const sql = journalSql({ process, since, by })
          const values = [process, since, by, 10].filter((v) => v !== undefined)
          const plan = (
            db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as { detail: string }[]
          )
            .map((row) => row.detail)
            .join(' | ')
          const shape = JSON.stringify({ process, since, by })
          assert.not.match(plan, /TEMP B-TREE/, `${shape} sorts: ${plan}`)
          assert.not.match(plan, /SCAN [a-z_]+( |$)(?!USING)/, `${shape} scans a table: ${plan}`)
        }
  } finally {
    db.close()
  }
})

test('a change and the journal entry written with it are committed together, or neither', () =>
  withStore(async (store, dir) => {
    const other = new Database(join(dir, DATABASE_FILE))
    try {
      other.exec(`CREATE TRIGGER refuse BEFORE INSERT ON journal
                  BEGIN SELECT RAISE(ABORT, 'refused (test)'); END`)
      store.put({ section: 'vfs', clientId: 2 }, { components: [] })
      store.journal(entry(1, 'alice', ['vf:2']))
      await store.sync().then(
        () => assert.unreachable('the commit should fail'),
        () => {},
      )
      const count = (table: string) =>
        (other.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
      assert.is(count('process_config'), 0, 'the change went with its entry')
      other.exec('DROP TRIGGER refuse')
      await store.sync()
      assert.is(count('process_config'), 1)
      assert.is(count('journal'), 1)
    } finally {
      other.close()
    }
  }))

test('a query sees the entries written before it, even before sync()', () =>
  withStore(async (store) => {
    store.journal(entry(1, 'alice', ['vf:2']))
    assert.equal(await minutesOf(store, { limit: 10 }), [1])
  }))

test('pruneJournal() removes older entries and their processes', () =>
  withStore(async (store, dir) => {
    const now = Date.now()
    store.journal({ ...entry(0, 'old', ['vf:2', 'nfv:1']), time: now - 3 * HOUR })
    store.journal({ ...entry(0, 'new', ['vf:2']), time: now - HOUR })
    await store.pruneJournal(2 * HOUR)
    assert.equal(
      (await store.journalQuery({ limit: 10 })).map((r) => r.by),
      ['new'],
    )
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true })
    try {
      assert.equal(db.prepare('SELECT process FROM journal_process').pluck().all(), ['vf:2'])
    } finally {
      db.close()
    }
  }))

test('entries older than journalKeepMs are pruned at open, and the count is told', () =>
  withTempDir(async (dir) => {
    const now = Date.now()
    const store = openStore(dir, { journalKeepMs: Infinity })
    for (const hours of [50, 49, 1])
      store.journal({ ...entry(0, `${hours}h`, []), time: now - hours * HOUR })
    await store.close()
    const pruned: number[] = []
    const reopened = openStore(dir, { journalKeepMs: 48 * HOUR, onPrune: (n) => pruned.push(n) })
    try {
      assert.equal(pruned, [2])
      assert.equal(
        (await reopened.journalQuery({ limit: 10 })).map((r) => r.by),
        ['1h'],
      )
    } finally {
      await reopened.close()
    }
  }))

test('the periodic prune removes entries once they are older than journalKeepMs', () =>
  withTempDir(async (dir) => {
    // The store's periodic timer is the test's: it fires when the test says so.
    const timers: { ms: number; fire: () => void }[] = []
    const every = (ms: number, fire: () => void) => (timers.push({ ms, fire }), () => {})
    const pruned: number[] = []
    const store = openStore(dir, {
      ...{ journalKeepMs: HOUR, pruneEveryMs: 5 * 60_000, onPrune: (n) => pruned.push(n) },
      machine: { every },
    })
    try {
      assert.equal(
        timers.map(({ ms }) => ms),
        [5 * 60_000],
      )
      store.journal({ ...entry(0, 'recent', []), time: Date.now() })
      store.journal({ ...entry(0, 'stale', []), time: Date.now() - 2 * HOUR })
      await store.sync()
      assert.equal(pruned, [], 'pruned before its time')
      timers[0]!.fire()
      await store.sync()
      assert.equal(pruned, [1])
      assert.equal(
        (await store.journalQuery({ limit: 10 })).map((r) => r.by),
        ['recent'],
      )
    } finally {
      await store.close()
    }
  }))

test('Infinity keeps every entry', () =>
  withTempDir(async (dir) => {
    const store = openStore(dir, { journalKeepMs: Infinity })
    store.journal({ ...entry(0, 'ancient', []), time: 0 })
    await store.close()
    const reopened = openStore(dir, { journalKeepMs: Infinity })
    assert.is((await reopened.journalQuery({ limit: 10 })).length, 1)
    await reopened.close()
  }))

test.run()
