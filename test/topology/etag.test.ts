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
