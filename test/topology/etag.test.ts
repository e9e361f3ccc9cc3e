// The topology ETag: configuration only (counters never make it stale), and If-Match matching.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'
import { ifMatchHolds, topologyEtag } from '../../src/topology/etag.ts'

const doc = (rx: number, ring = 0): TopologyDocument => ({
  primary: {
    phy_ports: [{ id: 0, eth: '56:48:4f:53:54:00', rx, tx: rx, tx_drop: 0 }],
    ring_ports: [{ id: ring, rx, rx_drop: 0, tx: rx, tx_drop: 0 }],
  },
  nfvs: { '1': { 'client-id': 1, status: 'Idle', ports: ['phy:0'], patches: [] } },
  vfs: {},
  mirrors: {},
})

test('a strong, quoted tag that traffic counters do not change', () => {
  const tag = topologyEtag(doc(0))
  assert.match(tag, /^"[A-Za-z0-9_-]{27}"$/)
  assert.is(topologyEtag(doc(12345)), tag)
})

test('any change of configuration changes it: a ring id, an nfv status, an unreadable process', () => {
  const tag = topologyEtag(doc(0))
  assert.is.not(topologyEtag(doc(0, 1)), tag)
  const running = doc(0)
  running.nfvs['1'] = { 'client-id': 1, status: 'Running', ports: ['phy:0'], patches: [] }
  assert.is.not(topologyEtag(running), tag)
  assert.is.not(topologyEtag({ ...doc(0), primary: { error: 'no reply' } }), tag)
})

// A 2020 primary, as real SPP answered its status (../shared/real-spp), with traffic counters.
const primary2020 = (rx: number, forwarder = 'idling', flow: object[] = []) => ({
  'master-lcore': 0,
  lcores: [0, 1],
  forwarder: { status: forwarder, ports: ['phy:0', 'phy:1'], patches: [] },
  phy_ports: [
    { id: 0, eth: 'ae:d7:c1:32:08:8e', rx, tx: rx, tx_drop: 0, nof_queues: { rx: 1, tx: 1 }, flow },
  ],
  ring_ports: [{ id: 0, rx, rx_drop: 0, tx: rx, tx_drop: 0 }],
  pipes: [],
})
const doc2020 = (primary: object, pcaps?: TopologyDocument['pcaps']): TopologyDocument => ({
  ...doc(0),
  primary: primary as TopologyDocument['primary'],
  ...(pcaps ? { pcaps } : {}),
})

test("a 2020 primary's forwarder and flow rules and the pcaps count; its counters do not", () => {
  const tag = topologyEtag(doc2020(primary2020(0)))
  assert.is(topologyEtag(doc2020(primary2020(987))), tag)
  assert.is.not(topologyEtag(doc2020(primary2020(0, 'running'))), tag)
  const rule = { rule_id: 0, pattern: ['eth'], actions: ['queue index 1'] }
  assert.is.not(topologyEtag(doc2020(primary2020(0, 'idling', [rule]))), tag)
  const pcap = { 'client-id': 4, status: 'idle' as const, core: [] }
  const withPcap = topologyEtag(doc2020(primary2020(0), { '4': pcap }))
  assert.is.not(withPcap, tag)
  const running = { ...pcap, status: 'running' as const }
  assert.is.not(topologyEtag(doc2020(primary2020(0), { '4': running })), withPcap)
})

test('If-Match: *, or any tag of a list; weak tags and others never match', () => {
  const CASES: [string, boolean][] = [
    ['*', true],
    ['"abc"', true],
    ['"x", "abc"', true],
    ['"x","abc"', true],
    ['W/"abc"', false],
    ['"abcd"', false],
    ['abc', false],
    ['', false],
  ]
  for (const [header, holds] of CASES) assert.is(ifMatchHolds(header, '"abc"'), holds, header)
})

test.run()
