// The store: what is put is remembered across a reopen, commits group writes, sync() means durable.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fdatasync, openSync, readlinkSync, realpathSync, symlinkSync } from 'node:fs'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { setImmediate as turn } from 'node:timers/promises'
import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import {
  DATABASE_FILE,
  openStore,
  StoreError,
  type JournalEntry,
  type Store,
  type StoreOptions,
} from '../../src/store/store.ts'
import type { StoreMachine } from '../../src/store/machine.ts'
import { withTempDir } from './temp-dir.ts'

const NFV = {
  status: 'Running',
  ports: ['phy:0', 'ring:0'],
  patches: [{ src: 'phy:0', dst: 'ring:0' }],
}
const VF = { components: [{ core: 2, name: 'fwd1', type: 'forward', rx_port: [], tx_port: [] }] }
/** A journal entry made at time 1, long ago. */
const ENTRY: JournalEntry = {
  time: 1,
  by: 'alice',
  requestId: 'req-1',
  method: 'PUT',
  path: '/v1/vfs/2',
  commands: [{ line: 'cmd', outcome: 'ok' }],
  status: 204,
  processes: ['vf:2'],
}

/** Opens a store in a fresh directory; closes it and removes the directory afterwards. */
const withStore = (
  body: (store: Store, dir: string) => Promise<void> | void,
  options: StoreOptions = {},
) =>
  withTempDir(async (dir) => {
    const store = openStore(dir, options)
    try {
      await body(store, dir)
    } finally {
      await store.close().catch(() => {})
    }
  })

/** The configurations committed to the database file, read by a connection of its own. */
function committed(dir: string): Record<string, unknown> {
  const db = new Database(join(dir, DATABASE_FILE), { readonly: true })
  try {
    const rows = db.prepare('SELECT section, client_id, config FROM process_config').all() as {
      section: string
      client_id: number
      config: string
    }[]
    return Object.fromEntries(
      rows.map((r) => [`${r.section}/${r.client_id}`, JSON.parse(r.config)]),
    )
  } finally {
    db.close()
  }
}

type Done = (error: NodeJS.ErrnoException | null) => void
/** The file a descriptor is open on, as the kernel names it. */
const fileOf = (fd: number) => readlinkSync(`/proc/self/fd/${fd}`)

/**
 * The log's syncs, as node makes them until `hold` is set; from then on each waits, with the file
 * it syncs, until the test lets it go.
 */
function heldSyncs() {
  const held: { file: string; release: () => void }[] = []
  const syncs = {
    hold: false,
    held,
    syncLog: (fd: number, done: Done) => {
      if (!syncs.hold) return fdatasync(fd, done)
      held.push({ file: fileOf(fd), release: () => fdatasync(fd, done) })
    },
    releaseAll: () => held.splice(0).forEach(({ release }) => release()),
    /** Resolves with how many syncs are held, once `count` are or after 100 turns. */
    async waitFor(count: number) {
      for (let turns = 0; held.length < count && turns < 100; turns++) await turn()
      return held.length
    },
  }
  return syncs
}

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (error) {
    return error
  }
  assert.unreachable('expected a rejection')
}

test('a new store remembers nothing', () =>
  withStore(async (store) => {
    assert.equal(store.remembered(), { nfvs: {}, vfs: {}, mirrors: {} })
    assert.is(store.revision(), 0)
    assert.is(await store.journalQuery({ limit: 10 }).then((entries) => entries.length), 0)
  }))

test('what was put is remembered after a reopen, every section, the primary without a client id', () =>
  withTempDir(async (dir) => {
    const store = openStore(dir)
    store.put({ section: 'nfvs', clientId: 1 }, NFV)
    store.put({ section: 'vfs', clientId: 2 }, VF)
    store.put({ section: 'mirrors', clientId: 3 }, { components: [] })
    store.put({ section: 'primary' }, { ports: ['phy:0'] })
    store.put({ section: 'nfvs', clientId: 10 }, { status: 'Idle' })
    await store.sync()
    await store.close()
    const reopened = openStore(dir)
    try {
      const expected = {
        nfvs: { '1': NFV, '10': { status: 'Idle' } },
        vfs: { '2': VF },
        mirrors: { '3': { components: [] } },
        primary: { ports: ['phy:0'] },
      }
      assert.equal(reopened.remembered(), expected)
      assert.equal(Object.keys(reopened.remembered().nfvs), ['1', '10'])
      assert.equal(reopened.recall({ section: 'vfs', clientId: 2 }), VF)
      assert.is(reopened.recall({ section: 'vfs', clientId: 3 }), undefined)
    } finally {
      await reopened.close()
    }
  }))

test('reads include writes still queued, and hand out copies', () =>
  withStore(async (store) => {
    store.put({ section: 'vfs', clientId: 2 }, VF)
    assert.equal(store.remembered().vfs['2'], VF)
    assert.equal(committed(store.dir), {}, 'nothing is committed yet')
    const copy = store.recall({ section: 'vfs', clientId: 2 })!
    copy.components = []
    assert.equal(store.recall({ section: 'vfs', clientId: 2 }), VF)
    await store.sync()
  }))

test('undefined forgets a process, also in the database', () =>
  withTempDir(async (dir) => {
    const store = openStore(dir)
    store.put({ section: 'nfvs', clientId: 1 }, NFV)
    store.put({ section: 'nfvs', clientId: 2 }, NFV)
    await store.sync()
    store.put({ section: 'nfvs', clientId: 1 }, undefined)
    assert.equal(Object.keys(store.remembered().nfvs), ['2'])
    await store.close()
    const reopened = openStore(dir)
    assert.equal(Object.keys(reopened.remembered().nfvs), ['2'])
    await reopened.close()
  }))

test('the revision counts changes, not repeats, and survives a reopen', () =>
  withTempDir(async (dir) => {
    const store = openStore(dir)
    store.put({ section: 'nfvs', clientId: 1 }, NFV)
    store.put({ section: 'nfvs', clientId: 1 }, { ...NFV }) // the same again
    store.put({ section: 'nfvs', clientId: 2 }, undefined) // nothing to forget
    assert.is(store.revision(), 1)
    store.put({ section: 'nfvs', clientId: 1 }, undefined)
    assert.is(store.revision(), 2)
    await store.sync()
    assert.is(store.stats().writes, 4, 'two changes, each with its revision')
    await store.close()
    const reopened = openStore(dir)
    assert.is(reopened.revision(), 2)
    await reopened.close()
  }))

test('meta values survive a reopen; the store keeps its own keys', () =>
  withTempDir(async (dir) => {
    const store = openStore(dir)
    store.putMeta('etcd.applied-revision', '41')
    store.putMeta('etcd.applied-revision', '42')
    store.putMeta('gone', 'x')
    store.putMeta('gone', undefined)
    assert.is(store.meta('etcd.applied-revision'), '42')
    assert.throws(() => store.putMeta('store.revision', '9'), /store\./)
    await store.close()
    const reopened = openStore(dir)
    assert.is(reopened.meta('etcd.applied-revision'), '42')
    assert.is(reopened.meta('gone'), undefined)
    await reopened.close()
  }))

test('a client id must be a non-negative integer', () =>
  withStore(async (store) => {
    for (const clientId of [-1, 1.5, NaN])
      assert.throws(() => store.put({ section: 'vfs', clientId }, VF), /client id/)
    await store.sync()
  }))

test('the writes of one turn are one commit, and concurrent writers share commits', () =>
  withStore(async (store) => {
    for (let id = 0; id < 64; id++) store.put({ section: 'vfs', clientId: id }, { components: [] })
    await store.sync()
    assert.is(store.stats().commits, 1)
    const rounds = 10
    const writer = async (id: number) => {
      for (let round = 0; round < rounds; round++) {
        store.put({ section: 'vfs', clientId: id }, { components: [], round })
        await store.sync()
      }
    }
    await Promise.all(Array.from({ length: 64 }, (_, id) => writer(id)))
    const commits = store.stats().commits - 1
    assert.ok(commits <= 2 * rounds, `640 writes in ${commits} commits`)
    assert.is(Object.keys(committed(store.dir)).length, 64)
  }))

test('a lone writer never waits for company; a commit waits for as many writers as the last', () => {
  // The store delays a commit with a timer only to gather writers: count the timers it sets, and
  // let none of them fire, so that only enough writers can start the delayed commit.
  const delayed: { callback: () => void; cancelled: boolean }[] = []
  const after = (_ms: number, callback: () => void) => {
    const timer = { callback, cancelled: false }
    delayed.push(timer)
    return () => void (timer.cancelled = true)
  }
  const syncs = heldSyncs()
  let passed = false
  return withStore(
    async (store, dir) => {
      const put = (id: number) => {
        store.put({ section: 'vfs', clientId: id }, { components: [], id })
        return store.sync()
      }
      try {
        for (let round = 0; round < 20; round++) {
          store.put({ section: 'nfvs', clientId: 1 }, { status: 'Idle', round })
          await store.sync()
        }
        assert.is(delayed.length, 0, 'a lone writer waited')
        syncs.hold = true
        const first = [put(1), put(2)] // two writers share a commit
        assert.is(await syncs.waitFor(1), 1)
        const third = put(3) // written during that commit's sync
        syncs.releaseAll()
        await Promise.all(first)
        assert.is(await syncs.waitFor(1), 0, 'one writer did not wait for a second')
        assert.is(delayed.length, 1)
        const fourth = put(4) // the second: the commit goes
        assert.is(await syncs.waitFor(1), 1, 'the second writer did not start the commit')
        syncs.releaseAll()
        await Promise.all([third, fourth])
        assert.equal(Object.keys(committed(dir)).sort(), [
          'nfvs/1',
          'vfs/1',
          'vfs/2',
          'vfs/3',
          'vfs/4',
        ])
        passed = true
      } finally {
        // After a failed assertion, the commit that waits is let go, so that the store can close.
        for (const { callback, cancelled } of delayed) if (!passed && !cancelled) callback()
        syncs.hold = false
        syncs.releaseAll()
      }
    },
    { machine: { syncLog: syncs.syncLog, after } },
  )
})

test('sync() resolves once its writes are committed, in order, also during a commit', () =>
  withStore(async (store) => {
    // What another connection sees of the database when each sync() resolves: at least its own
    // writes (the next batch may already be committed as the first resolves).
    const seen: [string, string[]][] = []
    const look = (who: string) => () => seen.push([who, Object.keys(committed(store.dir))])
    store.put({ section: 'nfvs', clientId: 1 }, NFV)
    const first = store.sync().then(look('first'))
    await turn() // the first commit is under way
    store.put({ section: 'nfvs', clientId: 2 }, NFV)
    const second = store.sync().then(look('second'))
    await Promise.all([second, first])
    assert.equal(
      seen.map(([who]) => who),
      ['first', 'second'],
    )
    assert.ok(seen[0]![1].includes('nfvs/1'))
    assert.equal(seen[1]![1].sort(), ['nfvs/1', 'nfvs/2'])
    assert.is(store.stats().commits, 2)
    await store.sync() // nothing queued: resolves
  }))

test('sync() resolves only once an fdatasync of the write-ahead log has returned', () => {
  // The store syncs through the log file it is given: the test holds each sync until it lets it go.
  const syncs = heldSyncs()
  syncs.hold = true
  return withStore(
    async (store, dir) => {
      try {
        store.put({ section: 'nfvs', clientId: 1 }, NFV)
        let durable = false
        const synced = store.sync().then(() => (durable = true))
        await syncs.waitFor(1)
        assert.equal(
          syncs.held.map(({ file }) => file),
          [`${realpathSync(join(dir, DATABASE_FILE))}-wal`],
        )
        assert.ok('nfvs/1' in committed(dir), 'committed before its sync')
        for (let turns = 0; turns < 10; turns++) await turn()
        assert.is(durable, false, 'acknowledged before the log was synced')
        syncs.releaseAll()
        await synced
        assert.is(store.stats().commits, 1)
      } finally {
        syncs.hold = false
        syncs.releaseAll() // so that the store can close when an assertion failed
      }
    },
    { machine: { syncLog: syncs.syncLog } },
  )
})

test('a failed commit rejects sync(), keeps the writes, and the next commit saves them', () =>
  withStore(async (store, dir) => {
    // A real failure of the real database: a trigger refuses the row, as a full disk would.
    const other = new Database(join(dir, DATABASE_FILE))
    try {
      other.exec(`CREATE TRIGGER refuse BEFORE INSERT ON process_config
                  BEGIN SELECT RAISE(ABORT, 'no space left (test)'); END`)
      store.put({ section: 'vfs', clientId: 2 }, VF)
      const error = await rejection(store.sync())
      assert.instance(error, StoreError)
      assert.is((error as StoreError).code, 'COMMIT_FAILED')
      assert.match((error as StoreError).message, /no space left \(test\)/)
      assert.equal(store.remembered().vfs['2'], VF)
      assert.equal(committed(dir), {})
      other.exec('DROP TRIGGER refuse')
      await store.sync()
      assert.equal(committed(dir), { 'vfs/2': VF })
    } finally {
      other.close()
    }
  }))

test('a failed fdatasync of the log fails its writers and every later one, for good', () =>
  withTempDir(async (dir) => {
    const broken: StoreError[] = []
    // The log's syncs are node's, but while `failing` the next one waits to fail with EIO.
    let failing = false
    let fail: (() => void) | undefined
    const syncLog: StoreMachine['syncLog'] = (fd, done) => {
      if (!failing) return fdatasync(fd, done)
      const error: NodeJS.ErrnoException = new Error('EIO: i/o error, fdatasync')
      error.code = 'EIO'
      fail = () => done(error)
    }
    const store = openStore(dir, { onBroken: (error) => broken.push(error), machine: { syncLog } })
    try {
      store.put({ section: 'nfvs', clientId: 1 }, NFV)
      await store.sync()
      // Linux reports a failed writeback once, then calls the pages clean: after an EIO, a sync
      // that succeeds proves nothing of the frames before it, so nothing more may count as durable.
      failing = true
      store.put({ section: 'vfs', clientId: 2 }, VF)
      const failed = rejection(store.sync())
      for (let turns = 0; turns < 100 && !fail; turns++) await turn()
      // a change that comes during the sync that fails, and someone waiting for it
      store.put({ section: 'vfs', clientId: 3 }, VF)
      let during: unknown = 'waiting'
      void rejection(store.sync()).then((error) => (during = error))
      fail!()
      for (let turns = 0; turns < 100 && during === 'waiting'; turns++) await turn()
      assert.is(
        (during as StoreError).code,
        'COMMIT_FAILED',
        'a change made during the failed sync',
      )
      const error = (await failed) as StoreError
      assert.is(error.code, 'COMMIT_FAILED')
      assert.match(error.message, /EIO.*until the controller restarts/)
      assert.is(broken.length, 1, 'told once')
      failing = false
      store.put({ section: 'vfs', clientId: 4 }, VF)
      const later = (await rejection(store.sync())) as StoreError
      assert.is(later.code, 'COMMIT_FAILED', 'a later change acknowledged')
      for (let turns = 0; turns < 10; turns++) await turn()
      assert.is(store.stats().commits, 1)
      assert.not.ok('vfs/4' in committed(dir), 'a change after the failure was committed')
      assert.is(broken.length, 1)
    } finally {
      await store.close().catch(() => {})
    }
  }))

test('the log synced is the one beside the database a symbolic link names', () =>
  withTempDir(async (elsewhere) => {
    await openStore(elsewhere).close()
    await withTempDir(async (dir) => {
      symlinkSync(join(elsewhere, DATABASE_FILE), join(dir, DATABASE_FILE))
      writeFileSync(join(dir, `${DATABASE_FILE}-wal`), '') // a stale log beside the link
      const synced: string[] = []
      const syncLog: StoreMachine['syncLog'] = (fd, done) => {
        synced.push(fileOf(fd))
        fdatasync(fd, done)
      }
      const store = openStore(dir, { machine: { syncLog } })
      try {
        store.put({ section: 'nfvs', clientId: 1 }, NFV)
        await store.sync()
      } finally {
        await store.close()
      }
      assert.equal(synced, [`${realpathSync(join(elsewhere, DATABASE_FILE))}-wal`])
      assert.equal(committed(elsewhere), { 'nfvs/1': NFV })
    })
  }))

test('when the log cannot be opened, nothing is committed, and the next commit saves it once', () => {
  let full = true // of descriptors: the log cannot be opened while this is so
  const openLog: StoreMachine['openLog'] = (path) => {
    if (full && path.endsWith('-wal')) throw new Error('EMFILE: too many open files (test)')
    return openSync(path, 'r+')
  }
  return withStore(
    async (store, dir) => {
      store.journal(ENTRY)
      const error = await rejection(store.sync())
      full = false
      assert.match((error as StoreError).message, /EMFILE/)
      const rows = () => {
        const db = new Database(join(dir, DATABASE_FILE), { readonly: true })
        try {
          return (db.prepare('SELECT count(*) AS n FROM journal').get() as { n: number }).n
        } finally {
          db.close()
        }
      }
      assert.is(rows(), 0, 'committed although its log could not be synced')
      await store.sync()
      assert.is(rows(), 1)
    },
    { machine: { openLog } },
  )
})

test("a commit does not wait on the main thread for another connection's lock", () =>
  withStore(async (store, dir) => {
    // Another process holds the write lock until told to let it go. A commit that waited for it on
    // the main thread would hold the event loop (the busy timeout is asserted in writes.test.ts).
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require(process.argv[1]))(process.argv[2])
         db.exec('BEGIN IMMEDIATE'); process.stdout.write('locked\\n')
         process.stdin.once('data', () => { db.exec('COMMIT'); process.exit(0) })`,
        createRequire(import.meta.url).resolve('better-sqlite3'),
        join(dir, DATABASE_FILE),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    )
    const exited = once(holder, 'exit')
    try {
      await Promise.race([
        once(holder.stdout, 'data'),
        exited.then(() => assert.unreachable('the holder exited before it held the lock')),
      ])
      store.put({ section: 'vfs', clientId: 2 }, VF)
      const error = (await rejection(store.sync())) as StoreError
      assert.is(error.code, 'COMMIT_FAILED')
      assert.match(error.message, /locked|busy/)
      assert.equal(committed(dir), {})
    } finally {
      holder.stdin.end('go\n')
      await exited
    }
    await store.sync() // the writes stayed queued
    assert.equal(committed(dir), { 'vfs/2': VF })
  }))

test('a failure at open is STATE_DIR_UNUSABLE naming the database, and leaves it unlocked', () =>
  withTempDir(async (dir) => {
    const old = openStore(dir, { journalKeepMs: Infinity })
    old.journal(ENTRY) // long ago: the prune at open removes it
    await old.close()
    const other = new Database(join(dir, DATABASE_FILE))
    try {
      other.exec(`CREATE TRIGGER refuse BEFORE DELETE ON journal
                  BEGIN SELECT RAISE(ABORT, 'no deletes (test)'); END`)
      let error: unknown
      try {
        openStore(dir)
          .close()
          .catch(() => {})
      } catch (thrown) {
        error = thrown
      }
      assert.instance(error, StoreError)
      assert.is((error as StoreError).code, 'STATE_DIR_UNUSABLE')
      assert.match((error as StoreError).message, join(dir, DATABASE_FILE))
      assert.match((error as StoreError).message, 'no deletes (test)')
      other.exec('DROP TRIGGER refuse')
      await openStore(dir).close() // not left locked
    } finally {
      other.close()
    }
  }))

test('close() commits what is queued; a closed store refuses writes and rejects sync()', () =>
  withTempDir(async (dir) => {
    const store = openStore(dir)
    store.put({ section: 'vfs', clientId: 2 }, VF)
    await store.close()
    assert.equal(committed(dir), { 'vfs/2': VF })
    const error = await rejection(store.sync())
    assert.is((error as StoreError).code, 'STORE_CLOSED')
    assert.throws(() => store.put({ section: 'vfs', clientId: 3 }, VF), /closed/)
    assert.throws(() => store.journal({} as never), /closed/)
    await store.close() // twice is fine
  }))

test('a second store on the same directory is refused while the first is open', () =>
  withStore((_store, dir) => {
    assert.throws(
      () => openStore(dir),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === 'STATE_DIR_LOCKED' &&
        error.message === `state directory ${dir} is in use by another spp-ctl`,
    )
  }))

test('a file that is not a database is STATE_DIR_UNUSABLE, and leaves the directory unlocked', () =>
  withTempDir((dir) => {
    writeFileSync(join(dir, DATABASE_FILE), 'not a database, not at all: some text long enough')
    for (let attempt = 0; attempt < 2; attempt++)
      assert.throws(
        () => openStore(dir),
        (error: unknown) =>
          error instanceof StoreError &&
          error.code === 'STATE_DIR_UNUSABLE' &&
          error.message.includes(DATABASE_FILE),
      )
  }))

test.run()
