// The planner as input/output tables: the steps (as `METHOD path body`) for a live and a desired state.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseDesired } from '../../src/topology/document.ts'
import { plan } from '../../src/topology/plan.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'

const NONE = { operation: 'none', id: 0, pcp: 0 }
const use = (port: string, vlan = NONE) => ({ port, vlan })
const comp = (name: string, core: number, type: string, rx: string[] = [], tx: string[] = []) => ({
  core,
  name,
  type,
  rx_port: rx.map((p) => use(p)),
  tx_port: tx.map((p) => use(p)),
})
const unuse = (core: number) => ({ core, type: 'unuse' })

/** A live document: primary with rings 0-3, nfv 1, vf 2 (workers 2-5), mirror 3 (workers 2-3). */
function live({
  nfv = {},
  vf = [unuse(2), unuse(3), unuse(4), unuse(5)] as object[],
  classifier = [] as object[],
  mirror = [unuse(2), unuse(3)] as object[],
}: { nfv?: object; vf?: object[]; classifier?: object[]; mirror?: object[] } = {}) {
  const ring = (id: number) => ({ id, rx: 0, rx_drop: 0, tx: 0, tx_drop: 0 })
  return {
    primary: { phy_ports: [], ring_ports: [0, 1, 2, 3].map(ring) },
    nfvs: {
      '1': { 'client-id': 1, status: 'Idle', ports: ['phy:0', 'phy:1'], patches: [], ...nfv },
    },
    vfs: {
      '2': {
        'client-id': 2,
        ports: ['phy:0', 'phy:1'],
        components: vf,
        classifier_table: classifier,
      },
    },
    mirrors: { '3': { 'client-id': 3, ports: ['phy:0'], components: mirror } },
  } as unknown as TopologyDocument
}

const steps = (from: TopologyDocument, desired: unknown) => {
  const result = plan(from, parseDesired(desired))
  if (!result.ok) throw new Error(`refused: ${result.refusal.field}: ${result.refusal.reason}`)
  return result.plan.steps.map(
    (s) => `${s.method} ${s.path}${s.body === undefined ? '' : ' ' + JSON.stringify(s.body)}`,
  )
}

const CASES: [string, TopologyDocument, unknown, string[]][] = [
  ['the exported live document plans nothing', live(), live(), []],
  // --nfv-status wire exports the nfv's own words: they plan as the spec's do.
  [
    "an nfv's running (its own word) is Running",
    live(),
    { nfvs: { '1': { status: 'running' } } },
    ['PUT /v1/nfvs/1/forward {"action":"start"}'],
  ],
  [
    "an nfv's idling is Idle",
    live({ nfv: { status: 'Running' } }),
    { nfvs: { '1': { status: 'idling' } } },
    ['PUT /v1/nfvs/1/forward {"action":"stop"}'],
  ],
  ['an empty document plans nothing', live(), {}, []],
  [
    'a reordered patch list is the same set: nothing (the operator would reset everything)',
    live({
      nfv: {
        status: 'Running',
        ports: ['phy:0', 'phy:1', 'ring:0'],
        patches: [
          { src: 'phy:0', dst: 'ring:0' },
          { src: 'ring:0', dst: 'phy:1' },
        ],
      },
    }),
    {
      nfvs: {
        '1': {
          patches: [
            { src: 'ring:0', dst: 'phy:1' },
            { src: 'phy:0', dst: 'ring:0' },
          ],
        },
      },
    },
    [],
  ],
  [
    'a port moves from one forward to another: detach before attach',
    live({ vf: [comp('a', 2, 'forward', ['ring:0']), comp('b', 3, 'forward'), unuse(4)] }),
    {
      vfs: { '2': { components: [comp('a', 2, 'forward'), comp('b', 3, 'forward', ['ring:0'])] } },
    },
    [
      'PUT /v1/vfs/2/components/a/ports {"action":"detach","port":"ring:0","dir":"rx"}',
      'PUT /v1/vfs/2/components/b/ports {"action":"attach","port":"ring:0","dir":"rx"}',
    ],
  ],
  [
    'a vlan change is a detach, then an attach with the new setting',
    live({ vf: [comp('a', 2, 'forward', [], ['ring:1'])] }),
    {
      vfs: {
        '2': {
          components: [
            {
              ...comp('a', 2, 'forward'),
              tx_port: [{ port: 'ring:1', vlan: { operation: 'add', id: 7, pcp: 1 } }],
            },
          ],
        },
      },
    },
    [
      'PUT /v1/vfs/2/components/a/ports {"action":"detach","port":"ring:1","dir":"tx"}',
      'PUT /v1/vfs/2/components/a/ports {"action":"attach","port":"ring:1","dir":"tx","vlan":{"operation":"add","id":7,"pcp":1}}',
    ],
  ],
  [
    'a component that changes core: detach its ports, stop, start, attach tx then rx',
    live({ vf: [comp('a', 2, 'forward', ['ring:0'], ['ring:1']), unuse(3)] }),
    { vfs: { '2': { components: [comp('a', 3, 'forward', ['ring:0'], ['ring:1'])] } } },
    [
      'PUT /v1/vfs/2/components/a/ports {"action":"detach","port":"ring:0","dir":"rx"}',
      'PUT /v1/vfs/2/components/a/ports {"action":"detach","port":"ring:1","dir":"tx"}',
      'DELETE /v1/vfs/2/components/a',
      'POST /v1/vfs/2/components {"name":"a","core":3,"type":"forward"}',
      'PUT /v1/vfs/2/components/a/ports {"action":"attach","port":"ring:1","dir":"tx"}',
      'PUT /v1/vfs/2/components/a/ports {"action":"attach","port":"ring:0","dir":"rx"}',
    ],
  ],
  [
    'a classifier entry on a port about to be detached is deleted first, with its own vid and MAC',
    live({
      vf: [comp('c', 2, 'classifier_mac', ['phy:0'], ['ring:0', 'ring:1'])],
      classifier: [
        { type: 'vlan', value: '10/default', port: 'ring:0' },
        { type: 'mac', value: 'AA:BB:CC:DD:EE:FF', port: 'ring:1' },
      ],
    }),
    {
      vfs: {
        '2': {
          components: [comp('c', 2, 'classifier_mac', ['phy:0'], ['ring:1'])],
          classifier_table: [{ type: 'mac', value: 'aa:bb:cc:dd:ee:ff', port: 'ring:1' }],
        },
      },
    },
    [
      'PUT /v1/vfs/2/classifier_table {"action":"del","type":"vlan","vlan":10,"mac_address":"default","port":"ring:0"}',
      'PUT /v1/vfs/2/components/c/ports {"action":"detach","port":"ring:0","dir":"tx"}',
    ],
  ],
  [
    'nfv: a port goes while forwarding: stop, reset, delete, then set the patches and start again',
    live({
      nfv: {
        status: 'Running',
        ports: ['phy:0', 'phy:1', 'ring:0', 'ring:1'],
        patches: [
          { src: 'phy:0', dst: 'ring:0' },
          { src: 'ring:1', dst: 'phy:1' },
        ],
      },
    }),
    { nfvs: { '1': { ports: ['phy:0', 'phy:1', 'ring:1'] } } },
    [
      'PUT /v1/nfvs/1/forward {"action":"stop"}',
      'DELETE /v1/nfvs/1/patches',
      'PUT /v1/nfvs/1/ports {"action":"del","port":"ring:0"}',
      'PUT /v1/nfvs/1/patches {"src":"ring:1","dst":"phy:1"}',
      'PUT /v1/nfvs/1/forward {"action":"start"}',
    ],
  ],
  [
    'nfv: deleting a port while Idle and Running wanted still ends with a start',
    live({ nfv: { ports: ['phy:0', 'phy:1', 'vhost:0'] } }),
    { nfvs: { '1': { status: 'Running', ports: [] } } },
    [
      'PUT /v1/nfvs/1/ports {"action":"del","port":"vhost:0"}',
      'PUT /v1/nfvs/1/forward {"action":"start"}',
    ],
  ],
  [
    'nfv: Idle wanted is one stop, whatever else stays',
    live({ nfv: { status: 'Running' } }),
    { nfvs: { '1': { status: 'Idle' } } },
    ['PUT /v1/nfvs/1/forward {"action":"stop"}'],
  ],
  [
    'tear down everywhere before building anywhere: vf and mirror, then nfv, then vf, then nfv',
    live({
      nfv: { ports: ['phy:0', 'phy:1', 'ring:0'] },
      vf: [comp('a', 2, 'forward', ['ring:0'])],
      mirror: [comp('m', 2, 'mirror', ['ring:2']), unuse(3)],
    }),
    {
      nfvs: { '1': { ports: ['ring:1'] } },
      vfs: { '2': { components: [comp('a', 2, 'forward', ['ring:1'])] } },
      mirrors: { '3': { components: [] } },
    },
    [
      'PUT /v1/vfs/2/components/a/ports {"action":"detach","port":"ring:0","dir":"rx"}',
      'PUT /v1/mirrors/3/components/m/ports {"action":"detach","port":"ring:2","dir":"rx"}',
      'DELETE /v1/mirrors/3/components/m',
      'PUT /v1/nfvs/1/ports {"action":"del","port":"ring:0"}',
      'PUT /v1/vfs/2/components/a/ports {"action":"attach","port":"ring:1","dir":"rx"}',
      'PUT /v1/nfvs/1/ports {"action":"add","port":"ring:1"}',
    ],
  ],
  [
    'absent fields and processes are left as they are; a classifier entry is added after its port',
    live({ nfv: { status: 'Running' }, mirror: [comp('m', 2, 'mirror', ['ring:2']), unuse(3)] }),
    {
      vfs: {
        '2': {
          components: [comp('c', 4, 'classifier_mac', ['phy:0'], ['ring:3'])],
          classifier_table: [{ type: 'vlan', value: '100/FA:16:3E:7D:CC:35', port: 'ring:3' }],
        },
      },
    },
    [
      'POST /v1/vfs/2/components {"name":"c","core":4,"type":"classifier_mac"}',
      'PUT /v1/vfs/2/components/c/ports {"action":"attach","port":"ring:3","dir":"tx"}',
      'PUT /v1/vfs/2/components/c/ports {"action":"attach","port":"phy:0","dir":"rx"}',
      'PUT /v1/vfs/2/classifier_table {"action":"add","type":"vlan","vlan":100,"mac_address":"FA:16:3E:7D:CC:35","port":"ring:3"}',
    ],
  ],
]

for (const [name, from, desired, expected] of CASES)
  test(name, () => assert.equal(steps(from, desired), expected))

test('the summary counts the steps by what they do', () => {
  const result = plan(live(), parseDesired({ nfvs: { '1': { ports: ['ring:0', 'vhost:1'] } } }))
  assert.equal(result.ok && result.plan.summary, { 'port.add': 2 })
})

const vfWith = (...components: object[]) => ({ vfs: { '2': { components } } })
const REFUSALS: [string, unknown, string, RegExp][] = [
  [
    'a core that is not a worker lcore',
    vfWith(comp('a', 1, 'forward')),
    'vfs.2.components[0].core',
    /not a worker lcore .*2, 3, 4, 5/,
  ],
  [
    'a duplicate name',
    vfWith(comp('a', 2, 'forward'), comp('a', 3, 'merge')),
    'vfs.2.components[1].name',
    /duplicate/,
  ],
  [
    'a port used twice in one direction',
    vfWith(unuse(5), comp('a', 2, 'forward', ['ring:0']), comp('b', 3, 'merge', ['ring:0'])),
    'vfs.2.components[2].rx_port[0].port',
    /already rx of a/,
  ],
  [
    'a shape over its limit',
    vfWith(comp('a', 2, 'forward', [], ['ring:0', 'ring:1'])),
    'vfs.2.components[0].tx_port',
    /at most 1 tx/,
  ],
  [
    'two types on one core',
    vfWith(comp('a', 2, 'forward'), comp('b', 2, 'merge')),
    'vfs.2.components[1].type',
    /one type/,
  ],
  [
    'two classifiers on one core',
    vfWith(comp('a', 2, 'classifier_mac'), comp('b', 2, 'classifier_mac')),
    'vfs.2.components[1].core',
    /at most one/,
  ],
  [
    'a ring the primary did not create',
    vfWith(comp('a', 2, 'forward', ['ring:9'])),
    'vfs.2.components[0].rx_port[0].port',
    // The words of a request's 400 (state/hazards.ts noRing): the ring, and the rings there are.
    /^the primary has no ring:9: its rings are ring:0 to ring:3; attaching it breaks vf 2$/,
  ],
  [
    'a phy port the vf does not have',
    vfWith(comp('a', 2, 'forward', ['phy:5'])),
    'vfs.2.components[0].rx_port[0].port',
    /has no phy:5/,
  ],
  [
    'a classifier entry on a port that will not be a classifier tx port',
    { vfs: { '2': { classifier_table: [{ type: 'mac', value: 'default', port: 'ring:0' }] } } },
    'vfs.2.classifier_table[0].port',
    /tx port of a classifier_mac/,
  ],
  [
    'a phy port added to an nfv',
    { nfvs: { '1': { ports: ['phy:2'] } } },
    'nfvs.1.ports[0]',
    /physical ports cannot be added/,
  ],
  [
    'a patch to a port the nfv will not have',
    { nfvs: { '1': { patches: [{ src: 'phy:0', dst: 'ring:0' }] } } },
    'nfvs.1.patches[0].dst',
    /will not be a port/,
  ],
  [
    'two destinations for one source',
    {
      nfvs: {
        '1': {
          patches: [
            { src: 'phy:0', dst: 'phy:1' },
            { src: 'phy:0', dst: 'phy:0' },
          ],
        },
      },
    },
    'nfvs.1.patches[1].src',
    /one patch per source/,
  ],
  [
    'a process that is not connected',
    { mirrors: { '9': { components: [] } } },
    'mirrors.9',
    /^no mirror with client id 9 is connected; connected: primary, nfv:1, vf:2, mirror:3$/,
  ],
  [
    "a client id of another kind's",
    { nfvs: { '2': { status: 'Running' } } },
    'nfvs.2',
    /^client id 2 is vf:2, not an nfv \(\/v1\/vfs\/2\); connected: primary, nfv:1, vf:2, mirror:3$/,
  ],
]

for (const [name, desired, field, reason] of REFUSALS)
  test(`refused before any step: ${name}`, () => {
    const result = plan(live(), parseDesired(desired))
    assert.ok(!result.ok, 'expected a refusal')
    if (result.ok) return
    assert.is(result.refusal.field, field)
    assert.match(result.refusal.reason, reason)
  })

test('an exported process that could not be read is accepted, and refused until it can be read', () => {
  const from = {
    ...live(),
    nfvs: { '1': { error: 'no reply within 5000 ms' } },
  } as TopologyDocument
  const result = plan(from, parseDesired({ nfvs: { '1': { error: 'no reply within 5000 ms' } } }))
  assert.equal(result.ok ? 'planned' : result.refusal, {
    field: 'nfvs.1',
    reason: 'nfv 1 could not be read: no reply within 5000 ms',
  })
})

test('a bad document names the field by its path', () => {
  assert.throws(
    () => parseDesired(vfWith(unuse(2), { ...comp('a', 200, 'forward') })),
    /^invalid key\(vfs\.2\.components\[1\]\.core\): .*200/,
  )
  assert.throws(() => parseDesired({ vf: {} }), /unknown key\(vf\)/)
  // a port written as text where an object is wanted: a value of the wrong type, not a key
  const textPort = { ...comp('a', 2, 'forward'), rx_port: ['ring:0'] }
  assert.throws(
    () => parseDesired({ vfs: { '2': { components: [textPort] } } }),
    /^invalid key\(vfs\.2\.components\[0\]\.rx_port\[0\]\): "ring:0" \(Invalid type: Expected Object/,
  )
})

test.run()
