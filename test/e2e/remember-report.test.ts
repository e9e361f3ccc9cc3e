// --restore report and refused restores over loopback: drift listed (API, event, metrics), nothing
// sent until POST /v1/topology/restore; a client's change to a drifting process keeps the rest.
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DATABASE_FILE } from '../../src/store/store.ts'
import { commandsOf, type Harness } from '../helpers/harness.ts'
import { withRemembering } from '../helpers/remember.ts'
import { about } from '../helpers/watch-events.ts'

const VF = [{ kind: 'primary' as const }, { kind: 'vf' as const, clientId: 2 }]
const attach = (name: string, port: string, dir: string) => [
  'PUT',
  `/v1/vfs/2/components/${name}/ports`,
  { action: 'attach', port, dir },
]
const VF_CHANGES = [
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd2', core: 4, type: 'forward' }],
  attach('fwd1', 'ring:0', 'rx'),
  attach('fwd1', 'vhost:0', 'tx'),
  attach('fwd2', 'vhost:1', 'rx'),
  attach('fwd2', 'ring:1', 'tx'),
] as [string, string, object][]

async function ok(h: Harness, method: string, path: string, body?: object, status = 204) {
  const r = await h.api(method, path, body)
  assert.is(r.status, status, `${method} ${path}: ${r.text}`)
  return r.text === '' ? undefined : r.json()
}
const line = async (h: Harness, series: string) =>
  (await h.api('GET', '/metrics')).text.split('\n').find((l) => l.startsWith(`${series} `))

type Drift = { vfs: Record<string, { steps: { path: string }[]; summary: object }> }

test('--restore report: the restarted vf is left empty, its drift listed, POST restore brings it back', () =>
  withRemembering(
    VF,
    async (h) => {
      for (const [method, path, body] of VF_CHANGES) await ok(h, method, path, body)
      const before = await ok(h, 'GET', '/v1/vfs/2', undefined, 200)
      const desired = (await ok(h, 'GET', '/v1/topology/desired', undefined, 200)) as {
        vfs: Record<string, object>
      }
      const fresh = await h.restart(h.sim('vf 2'))
      const detected = await h.events.until(
        (e) => e.type === 'drift.detected' && about(e, 'vf:2'),
        'drift.detected',
      )
      assert.equal(commandsOf(fresh), ['status']) // nothing sent
      const drift = (await ok(h, 'GET', '/v1/topology/drift', undefined, 200)) as Drift
      // Its steps are the plan of the remembered configuration from the live one.
      const planned = await ok(h, 'POST', '/v1/topology/plan', { vfs: desired.vfs }, 200)
      const { warnings: _, ...steps } = planned as { warnings?: unknown } // fwd2 sends into ring:1
      assert.equal(drift.vfs['2'], steps)
      assert.is(drift.vfs['2']!.steps.length, 6)
      // The event reports the drift as the route does (steps, summary), and its count as total.
      assert.equal(detected.data, { kind: 'vf', 'client-id': 2, ...drift.vfs['2']!, total: 6 })
      assert.is(
        await line(h, 'spp_drift_steps{process="vf:2"}'),
        'spp_drift_steps{process="vf:2"} 6',
      )

      // A client's change to the drifting vf is added to what is remembered, never a copy of
      // the empty vf: the rest is still to be restored.
      await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fwd3', core: 5, type: 'forward' })
      const now = (await ok(h, 'GET', '/v1/topology/desired', undefined, 200)) as typeof desired
      const names = (vf: object) =>
        (vf as { components: { name: string }[] }).components.map((c) => c.name)
      assert.equal(names(now.vfs['2']!), ['fwd1', 'fwd2', 'fwd3'])

      const restored = await h.api(
        'POST',
        '/v1/topology/restore',
        { process: 'vf:2' },
        {
          'X-Request-Id': 'my-restore',
        },
      )
      assert.is(restored.status, 200, restored.text)
      const { done } = restored.json() as { done: { path: string }[] }
      assert.is(done.length, 6)
      const after = (await ok(h, 'GET', '/v1/vfs/2', undefined, 200)) as { components: object[] }
      const { components } = before as { components: object[] }
      assert.equal(after.components.slice(0, 2), components.slice(0, 2))
      const inSync = (await ok(h, 'GET', '/v1/topology/drift', undefined, 200)) as Drift
      assert.equal(inSync.vfs['2'], { steps: [], summary: {} })
      assert.is(
        await line(h, 'spp_restores_total{outcome="done"}'),
        'spp_restores_total{outcome="done"} 1',
      )
      const told = h.events.seen.filter((e) => e.type.startsWith('restore.'))
      assert.equal(
        told.map((e) => e.type),
        ['restore.started', ...done.map(() => 'restore.step'), 'restore.done'],
      )
      assert.ok(told.every((e) => e.data.restore === 'my-restore'))

      // Journaled as the restore the request asked for.
      const db = new Database(join(h.dir, DATABASE_FILE), { readonly: true })
      try {
        const rows = db
          .prepare<[], { by: string; request_id: string; status: number }>(
            "SELECT by, request_id, status FROM journal WHERE by LIKE 'restore%' ORDER BY id",
          )
          .all()
        assert.equal(
          rows.map((r) => r.by),
          done.map(() => 'restore my-restore'),
        )
        assert.equal(
          rows.map((r) => r.request_id),
          done.map((_, i) => `my-restore.${i + 1}`),
        )
      } finally {
        db.close()
      }
    },
    { restore: 'report' },
  ))

test('a vf that comes back with other cores: the restore is refused with the core, nothing sent', () =>
  withRemembering(VF, async (h) => {
    for (const [method, path, body] of VF_CHANGES) await ok(h, method, path, body)
    const fresh = await h.restart(h.sim('vf 2'), { cores: [2, 3] })
    const failed = await h.events.until(
      (e) => e.type === 'restore.failed' && about(e, 'vf:2'),
      'restore.failed',
    )
    const refused = failed.data.refused as { field: string; reason: string }
    assert.match(refused.field, /^vfs\.2\.components\[1\]\.core$/)
    assert.match(refused.reason, /\b4\b/)
    assert.ok(h.events.seen.some((e) => e.type === 'drift.detected' && about(e, 'vf:2')))
    assert.not.ok(h.events.seen.some((e) => e.type === 'restore.started'))
    assert.equal(commandsOf(fresh), ['status'])
    const drift = (await ok(h, 'GET', '/v1/topology/drift', undefined, 200)) as {
      vfs: Record<string, unknown>
    }
    assert.equal(drift.vfs['2'], { refused })
    assert.is(
      await line(h, 'spp_restores_total{outcome="refused"}'),
      'spp_restores_total{outcome="refused"} 1',
    )
    assert.is(
      await line(h, 'spp_drift_refused{process="vf:2"}'),
      'spp_drift_refused{process="vf:2"} 1',
    )
    const again = await h.api('POST', '/v1/topology/restore', { process: 'vf:2' })
    assert.is(again.status, 422)
    assert.match(again.text, /core/)
    assert.equal(
      commandsOf(fresh).filter((c) => c !== 'status'),
      [],
    )
  }))

test.run()
