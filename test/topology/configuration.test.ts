// The configuration part of a topology document, per kind and era, as input/output tables; each
// one is a desired document that plans to no step against the state it was taken from.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { configurationOf } from '../../src/topology/configuration.ts'
import { parseDesired } from '../../src/topology/document.ts'
import { plan } from '../../src/topology/plan.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'

const NONE = { operation: 'none', id: 0, pcp: 0 }
const TAG = { operation: 'add', id: 100, pcp: 3 }
const ring = (id: number) => ({ id, rx: 32, rx_drop: 1, tx: 32, tx_drop: 2 })
const phy = (id: number) => ({ id, eth: `56:48:4f:53:54:0${id}`, rx: 64, tx: 60, tx_drop: 3 })
const FWD = {
  core: 2,
  name: 'fwd1',
  type: 'forward',
  rx_port: [{ port: 'ring:0', vlan: NONE }],
  tx_port: [{ port: 'phy:1', vlan: TAG }],
}
const CLS = {
  core: 3,
  name: 'cls',
  type: 'classifier_mac',
  rx_port: [{ port: 'phy:0', vlan: NONE }],
  tx_port: [{ port: 'ring:1', vlan: NONE }],
}
const CLASSIFIER = [{ type: 'mac', value: 'FA:16:3E:00:00:01', port: 'ring:1' }]

const LIVE_1811 = {
  primary: { phy_ports: [phy(0), phy(1)], ring_ports: [0, 1, 2, 3].map(ring) },
  nfvs: {
    '1': {
      'client-id': 1,
      status: 'Running',
      ports: ['phy:0', 'ring:0'],
      patches: [{ src: 'phy:0', dst: 'ring:0' }],
    },
  },
  vfs: {
    '2': {
      'client-id': 2,
      ports: ['phy:0', 'phy:1', 'ring:0', 'ring:1'],
      components: [FWD, CLS, { core: 4, type: 'unuse' }],
      classifier_table: CLASSIFIER,
    },
  },
  mirrors: {
    '3': {
      'client-id': 3,
      ports: ['ring:0'],
      components: [
        { core: 2, type: 'unuse' },
        { core: 3, name: 'mr1', type: 'mirror', rx_port: [{ port: 'ring:0' }], tx_port: [] },
      ],
    },
  },
}

const LIVE_2020 = {
  primary: {
    'master-lcore': 0,
    lcores: [0, 1],
    forwarder: {
      status: 'running',
      ports: ['phy:0', 'phy:1', 'ring:0', 'pipe:0', 'udf'],
      patches: [{ src: 'phy:0', dst: 'pipe:0' }],
    },
    phy_ports: [0, 1].map((id) => ({ ...phy(id), nof_queues: { rx: 1, tx: 1 }, flow: [] })),
    ring_ports: [0, 1].map(ring),
    pipes: [{ id: 0, rx: 0, tx: 1 }],
  },
  nfvs: {
    '1': {
      'client-id': 1,
      status: 'Idle',
      'master-lcore': 1,
      lcores: [1, 2],
      ports: ['phy:0', 'phy:0 nq 1', 'memif:0'],
      patches: [{ src: 'phy:0 nq 1', dst: 'memif:0' }],
    },
  },
  vfs: {
    '2': {
      'client-id': 2,
      ports: ['phy:0', 'ring:0'],
      'master-lcore': 1,
      // a 2020 vf's word for classifier_mac
      components: [
        { ...CLS, core: 2, type: 'classifier' },
        { core: 3, type: 'unuse' },
      ],
      classifier_table: CLASSIFIER,
    },
  },
  mirrors: {
    '3': {
      'client-id': 3,
      ports: ['ring:0'],
      'master-lcore': 1,
      components: [
        {
          core: 2,
          name: 'mr1',
          type: 'mirror',
          rx_port: [{ port: 'ring:0', vlan: NONE }],
          tx_port: [{ port: 'ring:1', vlan: NONE }],
        },
      ],
    },
  },
  pcaps: { '4': { 'client-id': 4, status: 'idling', core: [] } },
}

const SECONDARIES_2020 = {
  nfvs: {
    '1': {
      status: 'Idle',
      ports: ['phy:0', 'phy:0 nq 1', 'memif:0'],
      patches: [{ src: 'phy:0 nq 1', dst: 'memif:0' }],
    },
  },
  vfs: {
    '2': {
      components: [{ ...LIVE_2020.vfs['2'].components[0] }],
      classifier_table: CLASSIFIER,
    },
  },
  mirrors: { '3': { components: [LIVE_2020.mirrors['3'].components[0]] } },
}
const { forwarder: _, ...NO_FORWARDER } = LIVE_2020.primary

const CASES: [string, object, object][] = [
  [
    '18.11: no counters, no client ids, no unused cores, no port lists of a vf or mirror',
    LIVE_1811,
    {
      nfvs: {
        '1': {
          status: 'Running',
          ports: ['phy:0', 'ring:0'],
          patches: [{ src: 'phy:0', dst: 'ring:0' }],
        },
      },
      vfs: { '2': { components: [FWD, CLS], classifier_table: CLASSIFIER } },
      mirrors: {
        '3': {
          components: [
            { name: 'mr1', core: 3, type: 'mirror', rx_port: [{ port: 'ring:0' }], tx_port: [] },
          ],
        },
      },
    },
  ],
  [
    "2020: the primary's forwarder in spec words without udf, and its pipes; no lcores, flows, pcap",
    LIVE_2020,
    {
      primary: {
        forwarder: {
          status: 'Running',
          ports: ['phy:0', 'phy:1', 'ring:0', 'pipe:0'],
          patches: [{ src: 'phy:0', dst: 'pipe:0' }],
        },
        pipes: [{ id: 0, rx: 0, tx: 1 }],
      },
      ...SECONDARIES_2020,
    },
  ],
  [
    'a 2020 primary whose forwarder thread does not run has nothing to set, its pipes included',
    { ...LIVE_2020, primary: { ...NO_FORWARDER, lcores: [0] } },
    SECONDARIES_2020,
  ],
  [
    'a process that could not be read keeps its error; a kind with none stays an empty object',
    { primary: { error: 'timeout' }, nfvs: { '1': { error: 'timeout' } }, vfs: {}, mirrors: {} },
    { primary: { error: 'timeout' }, nfvs: { '1': { error: 'timeout' } }, vfs: {}, mirrors: {} },
  ],
  [
    'no primary connected: no primary member',
    { primary: {}, nfvs: {}, vfs: {}, mirrors: {} },
    { nfvs: {}, vfs: {}, mirrors: {} },
  ],
]

for (const [name, live, expected] of CASES)
  test(name, () => {
    assert.equal(configurationOf(live as TopologyDocument), expected)
  })

for (const [era, live] of [
  ['18.11', LIVE_1811],
  ['2020', LIVE_2020],
  ['2020 (no forwarder thread)', { ...LIVE_2020, primary: NO_FORWARDER }],
] as const)
  test(`the ${era} configuration plans to no step against the state it was taken from`, () => {
    const document = live as unknown as TopologyDocument
    const result = plan(document, parseDesired(configurationOf(document)))
    // No step (the classifier sends into ring:1, which nothing reads: a warning, not a step).
    assert.ok(result.ok)
    assert.equal({ ...result.plan, warnings: [] }, { steps: [], summary: {}, warnings: [] })
  })

const UNREADABLE: [string, TopologyDocument, object][] = [
  [
    'an nfv',
    { primary: {}, nfvs: { '1': { error: 'timeout' } }, vfs: {}, mirrors: {} },
    { field: 'nfvs.1', reason: 'nfv 1 could not be read: timeout' },
  ],
  [
    'the primary',
    { primary: { error: 'timeout' }, nfvs: {}, vfs: {}, mirrors: {} },
    { field: 'primary', reason: 'the primary could not be read: timeout' },
  ],
]
for (const [name, live, refusal] of UNREADABLE)
  test(`planning ${name} that could not be read from its configuration is refused, not skipped`, () => {
    assert.equal(plan(live, parseDesired(configurationOf(live))), { ok: false, refusal })
  })

test.run()
