// The key layout and the schemas of its three values, as tables.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import {
  decodeDesired,
  decodeValue,
  fleetKeys,
  HostName,
  Observed,
  observedTopology,
} from '../../src/fleet/keys.ts'
import { parseEndpoints } from '../../src/fleet/etcd-client.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'

test('every key of a host lives under PREFIX/hosts/NAME/, and parses back', () => {
  for (const prefix of ['/spp-ctl/', '/spp-ctl', '/site/a/']) {
    const keys = fleetKeys(prefix)
    const root = prefix.endsWith('/') ? prefix : `${prefix}/`
    assert.is(keys.desired('b'), `${root}hosts/b/desired`)
    assert.is(keys.observed('b'), `${root}hosts/b/observed`)
    assert.is(keys.alive('b'), `${root}hosts/b/alive`)
    for (const value of ['desired', 'observed', 'alive'] as const)
      assert.equal(keys.parse(`${root}hosts/b/${value}`), { host: 'b', value })
  }
  const keys = fleetKeys()
  for (const other of ['/spp-ctl/hosts/b', '/spp-ctl/hosts/b/c/desired', '/other/hosts/b/alive'])
    assert.is(keys.parse(other), undefined, other)
})

test('a host name is one key segment', () => {
  for (const good of ['compute-1', 'a', 'node.rack2_x']) assert.ok(v.is(HostName, good), good)
  for (const bad of ['', 'a/b', '../a', '-a', 'a b', 'x'.repeat(64)])
    assert.not.ok(v.is(HostName, bad), bad)
})

const LIVE: TopologyDocument = {
  primary: {
    phy_ports: [{ id: 0, eth: '56:48:4f:12:34:00', rx: 5, tx: 6, tx_drop: 0 }],
    ring_ports: [{ id: 0, rx: 1, rx_drop: 0, tx: 2, tx_drop: 0 }],
  },
  nfvs: { 1: { 'client-id': 1, status: 'Idle', ports: ['phy:0'], patches: [] } },
  vfs: {
    2: { 'client-id': 2, ports: ['phy:0'], components: [], classifier_table: [] },
    4: { error: 'timed out' },
  },
  mirrors: {},
}

test('observed carries the live topology without the counters, and passes its schema', () => {
  const topology = observedTopology(LIVE)
  assert.equal(topology.primary, {
    phy_ports: [{ id: 0, eth: '56:48:4f:12:34:00' }],
    ring_ports: [{ id: 0 }],
  })
  const observed = {
    url: 'http://127.0.0.1:7777',
    topology,
    eras: ['18.11'],
    processes: ['primary', 'nfv:1', 'vf:2', 'vf:4'],
    drift: 3,
    updated: new Date().toISOString(),
    apply: {
      revision: 7,
      state: 'applying',
      total: 3,
      steps: [{ why: 'x', ms: 2, outcome: 'done' }],
    },
  }
  const decoded = decodeValue(Observed, JSON.stringify(observed))
  assert.ok(decoded.ok, decoded.ok ? '' : decoded.error)
  const bad = decodeValue(Observed, JSON.stringify({ ...observed, drift: -1 }))
  assert.equal(bad, { ok: false, error: 'drift: Invalid value: Expected >=0 but received -1' })
  assert.equal(decodeValue(Observed, 'nope'), { ok: false, error: 'not JSON' })
})

test('a desired value is read with the topology document rules, naming a bad field', () => {
  assert.equal(decodeDesired('{"nfvs":{"1":{"status":"Idle"}}}'), {
    ok: true,
    value: { nfvs: { 1: { status: 'Idle' } } },
  })
  const bad = decodeDesired('{"nfvs":{"1":{"status":"Asleep"}}}')
  assert.ok(!bad.ok && bad.error.includes('nfvs.1.status'), JSON.stringify(bad))
})

test('--etcd takes comma-separated http(s) URLs', () => {
  assert.equal(parseEndpoints('http://10.0.0.1:2379, https://e2:2379/'), [
    'http://10.0.0.1:2379',
    'https://e2:2379/',
  ])
  for (const bad of ['', '10.0.0.1:2379', 'http://a:1/v3/kv', 'ftp://a'])
    assert.throws(() => parseEndpoints(bad), /--etcd/, bad)
})

test.run()
