// Remember and restore (issue 18) over loopback: processes configured by clients come back as they
// were after a restart, step by step, with no client request; an intact one costs nothing.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULTS, startController, type Controller } from '../../src/controller/controller.ts'
import { commandsOf, startHarness, type Harness } from '../helpers/harness.ts'
import { waitableLog, withRemembering } from '../helpers/remember.ts'
import { about } from '../helpers/watch-events.ts'

const ALL = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]

/** Requests a client makes, one after the other, each answered 204. */
async function configure(h: Pick<Harness, 'api'>, requests: [string, string, object?][]) {
  for (const [method, path, body] of requests) {
    const r = await h.api(method, path, body)
    assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
  }
}

const attach = (kind: string, id: number, name: string, port: string, dir: string, vlan?: object) =>
  [
    'PUT',
    `/v1/${kind}s/${id}/components/${name}/ports`,
    { action: 'attach', port, dir, ...(vlan ? { vlan } : {}) },
  ] as [string, string, object]

/** nfv 1 (ports, patches, Running), vf 2 (three components, vlans, classifier), mirror 3. */
export const CONFIGURE: [string, string, object?][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'vhost:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'vhost:0', dst: 'phy:1' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
  ['POST', '/v1/vfs/2/components', { name: 'cls', core: 2, type: 'classifier_mac' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 3, type: 'forward' }],
  ['POST', '/v1/vfs/2/components', { name: 'mrg', core: 4, type: 'merge' }],
  attach('vf', 2, 'cls', 'ring:0', 'rx'),
  attach('vf', 2, 'cls', 'ring:1', 'tx'),
  attach('vf', 2, 'cls', 'vhost:1', 'tx'),
  attach('vf', 2, 'fwd1', 'ring:1', 'rx'),
  attach('vf', 2, 'fwd1', 'vhost:2', 'tx', { operation: 'add', id: 10, pcp: 3 }),
  attach('vf', 2, 'mrg', 'vhost:1', 'rx'),
  attach('vf', 2, 'mrg', 'vhost:3', 'rx'),
  attach('vf', 2, 'mrg', 'ring:2', 'tx', { operation: 'del' }),
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'mac', mac_address: '52:54:00:00:00:01', port: 'ring:1' },
  ],
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'vlan', vlan: 20, mac_address: '52:54:00:00:00:02', port: 'vhost:1' },
  ],
  ['POST', '/v1/mirrors/3/components', { name: 'mr1', core: 2, type: 'mirror' }],
  attach('mirror', 3, 'mr1', 'ring:2', 'rx'),
  attach('mirror', 3, 'mr1', 'ring:3', 'tx'),
  attach('mirror', 3, 'mr1', 'vhost:4', 'tx'),
]

/** A 2020 primary's forwarder (a ring, a pipe, a patch, Running): part of its configuration. */
const PRIMARY_2020: [string, string, object][] = [
  ['PUT', '/v1/primary/ports', { action: 'add', port: 'ring:3' }],
  ['PUT', '/v1/primary/ports', { action: 'add', port: 'pipe:0', rx: 'ring:0', tx: 'ring:1' }],
  ['PUT', '/v1/primary/patches', { src: 'phy:1', dst: 'ring:3' }],
  ['PUT', '/v1/primary/forward', { action: 'start' }],
]

const get = async (h: Pick<Harness, 'api'>, path: string) => {
  const r = await h.api('GET', path)
  assert.is(r.status, 200, `${path}: ${r.text}`)
  return r.json()
}

for (const era of ['18.11', '2020'] as const)
  test(`${era}: nfv 1, vf 2 and mirror 3 restarted empty come back as they were, step by step`, () =>
    withRemembering(
      era === '2020' ? [...ALL, { kind: 'pcap', clientId: 4 }] : ALL,
      async (h) => {
        await configure(h, era === '2020' ? [...PRIMARY_2020, ...CONFIGURE] : CONFIGURE)
        const paths = ['/v1/nfvs/1', '/v1/vfs/2', '/v1/mirrors/3']
        const before = await Promise.all(paths.map((p) => get(h, p)))
        const desired = (await get(h, '/v1/topology/desired')) as { vfs: object }
        assert.equal(Object.keys(desired), [
          'nfvs',
          'vfs',
          'mirrors',
          ...(era === '2020' ? ['primary'] : []),
        ])

        const fresh = []
        for (const label of ['vf 2', 'nfv 1', 'mirror 3']) fresh.push(await h.restart(h.sim(label)))
        for (const process of ['vf:2', 'nfv:1', 'mirror:3'])
          await h.events.until((e) => e.type === 'restore.done' && about(e, process), process)

        const after = await Promise.all(paths.map((p) => get(h, p)))
        assert.equal(after, before)
        assert.equal(await get(h, '/v1/topology/desired'), desired)
        const drift = await get(h, '/v1/topology/drift')
        const none = { steps: [], summary: {} }
        const all = { nfvs: { '1': none }, vfs: { '2': none }, mirrors: { '3': none } }
        assert.equal(drift, era === '2020' ? { ...all, primary: none } : all)

        // The vf's restore, told step by step: started, each step done in order, done.
        const vf = h.events.seen.filter((e) => e.type.startsWith('restore.') && about(e, 'vf:2'))
        const total = commandsOf(fresh[0]!).filter((c) => c !== 'status').length
        assert.is(total, 13) // 3 starts, 8 attaches, 2 classifier entries
        assert.equal(
          vf.map((e) => [e.type, e.data.number, e.data.total, e.data.outcome]),
          [
            ['restore.started', undefined, total, undefined],
            ...Array.from({ length: total }, (_, i) => ['restore.step', i + 1, total, 'done']),
            ['restore.done', undefined, total, undefined],
          ],
        )
        assert.ok(vf.every((e) => e.data.restore === vf[0]!.data.restore))
        // An 18.11 primary has no configuration part to remember (a pcap neither): it comes back
        // as it is. A 2020 primary's forwarder and pipes come back as they were.
        type Primary = { forwarder?: unknown; pipes?: unknown }
        const { primary } = (await get(h, '/v1/topology/desired')) as { primary?: Primary }
        const shown = async () => {
          const { forwarder, pipes } = (await get(h, '/v1/primary/status')) as Primary
          return { forwarder, pipes }
        }
        const was = await shown()
        await h.restart(h.sim('primary'))
        if (era === '18.11') {
          assert.is(primary, undefined)
          return assert.equal(await get(h, '/v1/topology/drift'), drift)
        }
        assert.ok(primary?.forwarder, 'a 2020 primary is remembered')
        await h.events.until((e) => e.type === 'restore.done' && about(e, 'primary'), 'primary')
        assert.equal(await shown(), was)
      },
      { sim: { era } },
    ))

test('a controller restarted on the same directory: intact processes cost only their status read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-remember-'))
  let h: Harness | undefined
  let second: Controller | undefined
  try {
    h = await startHarness(ALL, { stateDir: dir, sim: { reconnect: true } })
    await configure(h, CONFIGURE)
    const desired = await get(h, '/v1/topology/desired')
    const { primaryPort, secondaryPort } = h.controller
    await h.controller.close()
    const before = h.sims.map((sim) => sim.received.length)
    // The same ports: the processes reconnect by themselves, as SPP's do.
    const logs = waitableLog()
    const options = { host: '127.0.0.1', primaryPort, secondaryPort, apiPort: 0, log: logs.log }
    second = await startController({ ...DEFAULTS, ...options, stateDir: dir })
    const api = `http://127.0.0.1:${second.apiPort}`
    const checked = await logs.until((l) => l.msg.startsWith('process matches its remembered'), 3)
    assert.equal(checked.map((l) => l.process).sort(), ['mirror:3', 'nfv:1', 'vf:2'])
    for (const [i, sim] of h.sims.entries()) {
      const since = sim.received.slice(before[i])
      // The handshake (a primary is probed with a status), then one status read.
      assert.equal(since.slice(1), ['status'], `${sim.label}: ${since.join(', ')}`)
    }
    assert.equal(await (await fetch(`${api}/v1/topology/desired`)).json(), desired)
    assert.not.ok(logs.lines.some((l) => String(l.msg).startsWith('restore')))
  } finally {
    for (const sim of h?.sims ?? []) sim.stop()
    await second?.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
