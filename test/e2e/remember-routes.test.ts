// What is remembered, over loopback: the desired document and its ETag, forgetting, the journal of
// each change, a commit that fails, changes queued behind a restore, and --state-dir none.
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DATABASE_FILE } from '../../src/store/store.ts'
import { commandsOf, withHarness, type Harness } from '../helpers/harness.ts'
import { waitableLog, withRemembering, type Remembering } from '../helpers/remember.ts'
import { about } from '../helpers/watch-events.ts'

const ALL = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
]
type Desired = { nfvs: Record<string, unknown>; vfs: Record<string, unknown> }

async function ok(h: Harness, method: string, path: string, body?: object, status = 204) {
  const r = await h.api(method, path, body)
  assert.is(r.status, status, `${method} ${path}: ${r.text}`)
  return r
}
const desiredOf = async (h: Harness) =>
  (await ok(h, 'GET', '/v1/topology/desired', undefined, 200)).json() as Desired
/** The state database, read beside the controller (WAL lets a reader in). */
function withDatabase<T>(h: Remembering, body: (db: Database.Database) => T): T {
  const db = new Database(join(h.dir, DATABASE_FILE))
  try {
    return body(db)
  } finally {
    db.close()
  }
}
type Row = {
  by: string
  method: string
  path: string
  body: string
  commands: string
  status: number
}
const journal = (h: Remembering) =>
  withDatabase(h, (db) =>
    db
      .prepare<[], Row>('SELECT by, method, path, body, commands, status FROM journal ORDER BY id')
      .all(),
  )

test('the desired document has an ETag; forgetting a process needs it current, and it is not restored', () =>
  withRemembering(ALL, async (h) => {
    const first = await ok(h, 'GET', '/v1/topology/desired', undefined, 200)
    const etag = first.headers.get('etag')!
    const same = await h.api('GET', '/v1/topology/desired', undefined, { 'If-None-Match': etag })
    assert.is(same.status, 304)
    // compared weakly, as RFC 9110 asks of If-None-Match: a proxy that compresses weakens a tag
    const weak = await h.api('GET', '/v1/topology/desired', undefined, {
      'If-None-Match': `W/${etag}`,
    })
    assert.is(weak.status, 304)
    await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' })
    await ok(h, 'PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
    const second = await ok(h, 'GET', '/v1/topology/desired', undefined, 200)
    assert.is.not(second.headers.get('etag'), etag)
    assert.equal(Object.keys((second.json() as Desired).vfs), ['2'])

    const stale = await h.api('DELETE', '/v1/topology/desired/vfs/2', undefined, {
      'If-Match': etag,
    })
    assert.is(stale.status, 412)
    const current = { 'If-Match': second.headers.get('etag')! }
    assert.is((await h.api('DELETE', '/v1/topology/desired/vfs/2', undefined, current)).status, 204)
    assert.equal((await desiredOf(h)).vfs, {})
    const again = await h.api('DELETE', '/v1/topology/desired/vfs/2')
    assert.is(again.status, 404)
    assert.match(again.type!, /^text\/plain/)

    // Back empty: nothing restored; the next change is what is remembered from now on.
    const fresh = await h.restart(h.sim('vf 2'))
    await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd9', core: 3, type: 'forward' })
    assert.equal(commandsOf(fresh), ['status', 'component start fwd9 3 forward'])
    assert.not.ok(h.events.seen.some((e) => e.type.startsWith('restore.')))
    const vf = (await desiredOf(h)).vfs['2'] as { components: { name: string }[] }
    assert.equal(
      vf.components.map((c) => c.name),
      ['fwd9'],
    )
    // A process that disconnects is remembered (and drifts: it is not there).
    const removed = new Promise((resolve) => h.controller.registry.once('removed', resolve))
    h.sim('nfv 1').stop()
    await removed
    assert.equal(Object.keys((await desiredOf(h)).nfvs), ['1'])
    const drift = (await ok(h, 'GET', '/v1/topology/drift', undefined, 200)).json() as {
      nfvs: Record<string, { refused: { reason: string } }>
    }
    assert.match(drift.nfvs['1']!.refused.reason, /no nfv with client id 1 is connected/)
  }))

test('a process that exits through the API is forgotten (2020 vf, 18.11 nfv)', async () => {
  for (const [era, kind, path] of [
    ['2020', 'vf', '/v1/vfs/2'],
    ['18.11', 'nfv', '/v1/nfvs/1'],
  ] as const)
    await withRemembering(
      ALL,
      async (h) => {
        await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' })
        await ok(h, 'PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
        const section: 'vfs' | 'nfvs' = kind === 'vf' ? 'vfs' : 'nfvs'
        assert.ok((await desiredOf(h))[section][kind === 'vf' ? '2' : '1'], era)
        await ok(h, 'DELETE', path)
        assert.equal((await desiredOf(h))[section], {}, era)
      },
      { sim: { era } },
    )
})

test('each change is journaled with who, what was sent and its outcome; refusals with nothing sent are not', () =>
  withRemembering(ALL, async (h) => {
    await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' })
    // Refused by the vf (an 18.11 one runs one type per core): sent, journaled.
    await ok(h, 'POST', '/v1/vfs/2/components', { name: 'mg1', core: 2, type: 'merge' }, 400)
    // Refused by the controller: nothing sent, nothing journaled.
    await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd1', core: 3, type: 'forward' }, 400)
    await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd3', core: 'two' }, 400)
    await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd3', core: 9, type: 'forward' }, 400)
    await ok(h, 'GET', '/v1/vfs/2', undefined, 200)
    const rows = journal(h)
    assert.is(rows.length, 2)
    const [done, refused] = rows
    assert.match(done!.by, /^anonymous 127\.0\.0\.1:\d+$/)
    assert.equal([done!.method, done!.path, done!.status], ['POST', '/v1/vfs/2/components', 204])
    assert.equal(JSON.parse(done!.body), { name: 'fwd1', core: 2, type: 'forward' })
    assert.equal(JSON.parse(done!.commands), [
      { line: 'component start fwd1 2 forward', outcome: 'ok' },
    ])
    const [command] = JSON.parse(refused!.commands) as {
      line: string
      outcome: { error: string }
    }[]
    assert.equal(
      [command!.line, command!.outcome.error, refused!.status],
      ['component start mg1 2 merge', 'COMMAND_REJECTED', 400],
    )
  }))

test('a change that cannot be made durable answers 500, never 2xx; the next one goes through', () =>
  withRemembering(ALL, async (h) => {
    withDatabase(h, (db) =>
      db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON journal
               BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`),
    )
    const r = await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
    assert.is(r.status, 500)
    assert.match(r.type!, /^text\/plain/)
    assert.match(r.text, /could not be remembered/)
    assert.is(r.headers.get('x-error-code'), 'COMMIT_FAILED')
    withDatabase(h, (db) => db.exec('DROP TRIGGER refuse'))
    await ok(h, 'PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' })
    const nfv = (await desiredOf(h)).nfvs['1'] as { ports: string[] }
    assert.ok(nfv.ports.includes('ring:0') && nfv.ports.includes('ring:1'))
    assert.is(journal(h).length, 2) // the failed commit was tried again with the next one
  }))

test("an apply whose step cannot be made durable answers that step's 500 COMMIT_FAILED, never 2xx", () =>
  withRemembering(ALL, async (h) => {
    withDatabase(h, (db) =>
      db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON journal
               BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`),
    )
    // keep_partial: no undo, whose own journal entries the trigger would refuse too.
    const desired = { nfvs: { '1': { status: 'Running' } } }
    const r = await h.api('POST', '/v1/topology/apply?keep_partial=true', desired)
    assert.is(r.status, 500, r.text)
    const { failed } = r.json() as { failed: { code: string; path: string; error: string } }
    assert.equal([failed.code, failed.path], ['COMMIT_FAILED', '/v1/nfvs/1/forward'])
    assert.match(failed.error, /^the change was made, but could not be remembered: /, failed.error)
    withDatabase(h, (db) => db.exec('DROP TRIGGER refuse'))
    assert.equal(journal(h), [])
  }))

test('a change to a process being restored waits behind the restore; a read does not', async () => {
  const logs = waitableLog('debug')
  await withRemembering(
    ALL,
    async (h) => {
      await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' })
      await ok(h, 'PUT', '/v1/vfs/2/components/fwd1/ports', {
        action: 'attach',
        port: 'ring:0',
        dir: 'rx',
      })
      const fresh = await h.restart(h.sim('vf 2'))
      await h.events.until(
        (e) => e.type === 'restore.started' && about(e, 'vf:2'),
        'restore.started',
      )
      const release = fresh.hold() // the restore's first step is not answered yet
      const change = h.api('POST', '/v1/vfs/2/components', {
        name: 'fwd2',
        core: 3,
        type: 'forward',
      })
      await logs.until((l) => l.msg === 'change waits for the restore of its process')
      const drift = (await ok(h, 'GET', '/v1/topology/drift', undefined, 200)).json() as {
        vfs: Record<string, { steps: unknown[] }>
      }
      assert.is(drift.vfs['2']!.steps.length, 2) // read as it is: nothing restored yet
      release()
      assert.is((await change).status, 204)
      assert.equal(commandsOf(fresh), [
        'status',
        'component start fwd1 2 forward',
        'port add ring:0 rx fwd1',
        'component start fwd2 3 forward',
      ])
      const vf = (await desiredOf(h)).vfs['2'] as { components: { name: string }[] }
      assert.equal(
        vf.components.map((c) => c.name),
        ['fwd1', 'fwd2'],
      )
    },
    { log: logs.log },
  )
})

test('an apply during a restore plans once the restore is over', async () => {
  const logs = waitableLog('debug')
  await withRemembering(
    ALL,
    async (h) => {
      await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' })
      const rx = { action: 'attach', port: 'ring:0', dir: 'rx' }
      await ok(h, 'PUT', '/v1/vfs/2/components/fwd1/ports', rx)
      const fresh = await h.restart(h.sim('vf 2'))
      await h.events.until((e) => e.type === 'restore.started' && about(e, 'vf:2'), 'restore')
      const release = fresh.hold()
      const fwd1 = { name: 'fwd1', core: 2, type: 'forward', rx_port: [{ port: 'ring:0' }] }
      const desired = { vfs: { '2': { components: [fwd1] } } }
      const applied = h.api('POST', '/v1/topology/apply', desired)
      await logs.until((l) => l.msg === 'waiting for the restores under way')
      release()
      const r = await applied
      assert.is(r.status, 200, r.text)
      assert.equal((r.json() as { done: unknown[] }).done, []) // the restore did it already
      assert.equal(
        commandsOf(fresh).filter((c) => c !== 'status'),
        ['component start fwd1 2 forward', 'port add ring:0 rx fwd1'],
      )
    },
    { log: logs.log },
  )
})

test('--state-dir none: nothing is remembered, the routes say so, and nothing drifts', () =>
  withHarness(ALL, async (h) => {
    for (const [method, path] of [
      ['GET', '/v1/topology/desired'],
      ['POST', '/v1/topology/restore'],
      ['DELETE', '/v1/topology/desired/vfs/2'],
    ]) {
      const r = await h.api(method!, path!)
      assert.is(r.status, 404, `${method} ${path}`)
      assert.match(r.text, /--state-dir none/)
    }
    const drift = await h.api('GET', '/v1/topology/drift') // nothing remembered drifts
    assert.equal([drift.status, drift.json()], [200, { nfvs: {}, vfs: {}, mirrors: {} }])
  }))

test.run()
