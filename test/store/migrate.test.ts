// The schema's migrations: a database written by version 1 opens, as version 2, with what it held.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { migrate, SCHEMA_VERSION } from '../../src/store/schema.ts'
import { DATABASE_FILE, openStore, StoreError } from '../../src/store/store.ts'
import { withTempDir } from './temp-dir.ts'

const V1 = readFileSync(new URL('./v1.sql', import.meta.url), 'utf8')

/** Writes a real database file from SQL, as an older controller would have left it. */
function writeDatabase(dir: string, sql: string) {
  const db = new Database(join(dir, DATABASE_FILE))
  db.pragma('journal_mode = WAL')
  db.exec(sql)
  db.close()
}

const schemaOf = (db: Database.Database) =>
  db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name').all()

test('migration 1 builds exactly the schema of the frozen version 1 database', () => {
  const migrated = new Database(':memory:')
  const frozen = new Database(':memory:')
  try {
    assert.is(migrate(migrated, 1), 1)
    frozen.exec(V1)
    assert.equal(schemaOf(migrated), schemaOf(frozen))
    assert.is(frozen.pragma('user_version', { simple: true }), 1)
  } finally {
    migrated.close()
    frozen.close()
  }
})

test('a version 1 database file opens as the latest version, everything it held intact', () =>
  withTempDir(async (dir) => {
    writeDatabase(dir, V1)
    const store = openStore(dir)
    try {
      assert.equal(store.remembered(), {
        primary: { ports: ['phy:0', 'phy:1'] },
        nfvs: {
          '1': {
            status: 'Running',
            ports: ['phy:0', 'ring:0'],
            patches: [{ src: 'phy:0', dst: 'ring:0' }],
          },
        },
        vfs: {
          '2': {
            components: [
              {
                core: 2,
                name: 'fwd1',
                type: 'forward',
                rx_port: [{ port: 'ring:0' }],
                tx_port: [],
              },
            ],
          },
        },
        mirrors: {},
      })
      assert.is(store.revision(), 3)
      assert.is(store.meta('etcd.applied-revision'), '17')
      store.put({ section: 'vfs', clientId: 2 }, undefined)
      store.journal({
        by: 'local',
        requestId: '1',
        method: 'DELETE',
        path: '/v1/topology/desired/vfs/2',
        commands: [],
        status: 204,
        processes: ['vf:2'],
      })
      await store.sync()
      assert.is(store.revision(), 4)
      assert.equal(
        (await store.journalQuery({ process: 'vf:2', limit: 5 })).map((r) => r.path),
        ['/v1/topology/desired/vfs/2'],
      )
    } finally {
      await store.close()
    }
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true })
    try {
      assert.is(db.pragma('user_version', { simple: true }), SCHEMA_VERSION)
      assert.is(db.pragma('integrity_check', { simple: true }), 'ok')
      assert.equal(db.pragma('foreign_key_check'), [])
    } finally {
      db.close()
    }
  }))

test('a failed migration leaves the database at the version it had', () =>
  withTempDir((dir) => {
    // Something in the way of migration 2: it fails half-way through its statements.
    writeDatabase(dir, `${V1}\nCREATE TABLE journal_process (x);`)
    assert.throws(() => openStore(dir), /journal_process/)
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true })
    try {
      assert.is(db.pragma('user_version', { simple: true }), 1)
      const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all()
      assert.not.ok(tables.includes('journal'), 'the journal table went with the failed migration')
    } finally {
      db.close()
    }
  }))

test('a database from a newer controller is refused, and the directory left unlocked', () =>
  withTempDir((dir) => {
    writeDatabase(dir, `${V1}\nPRAGMA user_version = ${SCHEMA_VERSION + 1};`)
    for (let attempt = 0; attempt < 2; attempt++)
      assert.throws(
        () => openStore(dir),
        (error: unknown) =>
          error instanceof StoreError &&
          error.code === 'SCHEMA_TOO_NEW' &&
          error.message.includes(`schema version ${SCHEMA_VERSION + 1}`),
      )
  }))

test.run()
