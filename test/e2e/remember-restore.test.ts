// Remember and restore (issue 18) over loopback: processes configured by clients come back as they
// were after a restart, step by step, with no client request; an intact one costs nothing.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf } from '../helpers/harness.ts'
import { withRemembering, type Remembering } from '../helpers/remember.ts'
import { about } from '../helpers/watch-events.ts'

const ALL = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]

/** Requests a client makes, one after the other, each answered 204. */
async function configure(h: Remembering, requests: [string, string, object?][]) {
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

const get = async (h: Remembering, path: string) => {
  const r = await h.api('GET', path)
  assert.is(r.status, 200, `${path}: ${r.text}`)
  return r.json()
}

test('nfv 1, vf 2 and mirror 3 restarted empty come back as they were, step by step, unasked', () =>
  withRemembering(ALL, async (h) => {
    await configure(h, CONFIGURE)
    const paths = ['/v1/nfvs/1', '/v1/vfs/2', '/v1/mirrors/3']
    const before = await Promise.all(paths.map((p) => get(h, p)))
    const desired = (await get(h, '/v1/topology/desired')) as { vfs: object }
    assert.equal(Object.keys(desired), ['nfvs', 'vfs', 'mirrors'])

    const fresh = []
    for (const label of ['vf 2', 'nfv 1', 'mirror 3']) fresh.push(await h.restart(h.sim(label)))
    for (const process of ['vf:2', 'nfv:1', 'mirror:3'])
      await h.events.until((e) => e.type === 'restore.done' && about(e, process), process)

    const after = await Promise.all(paths.map((p) => get(h, p)))
    assert.equal(after, before)
    assert.equal(await get(h, '/v1/topology/desired'), desired)
    const drift = await get(h, '/v1/topology/drift')
    const none = { steps: [], summary: {} }
    assert.equal(drift, { nfvs: { '1': none }, vfs: { '2': none }, mirrors: { '3': none } })

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
  }))

test.run()
