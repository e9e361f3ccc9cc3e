// The document -> graph module, as input -> output tables.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { structureKey, toElements, unusedPorts, type TopologyDocument } from '../../src/ui/graph.js'

const EMPTY: TopologyDocument = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
const ids = (doc: TopologyDocument) => toElements(doc).map((e) => e.data.id)
const byId = (doc: TopologyDocument, id: string) => toElements(doc).find((e) => e.data.id === id)

const NFV = {
  'client-id': 1,
  status: 'Running',
  ports: ['phy:0', 'phy:1', 'ring:0'],
  patches: [{ src: 'phy:0', dst: 'ring:0' }],
}

test('an empty document has no elements', () => {
  assert.equal(toElements(EMPTY), [])
})

test("the primary's physical ports are port nodes coloured by type", () => {
  const doc = { ...EMPTY, primary: { phy_ports: [{ id: 0 }, { id: 1 }], ring_ports: [{ id: 0 }] } }
  assert.equal(ids(doc), ['port phy:0', 'port phy:1'])
  assert.is(byId(doc, 'port phy:0')!.classes, 'port phy')
})

test('an nfv is a node labelled with its status, its patches edges between shared port nodes', () => {
  const doc = { ...EMPTY, nfvs: { '1': NFV, '4': { ...NFV, 'client-id': 4, patches: [] } } }
  assert.equal(ids(doc), [
    'port phy:0',
    'port phy:1',
    'port ring:0',
    'nfv:1',
    'nfv:4',
    'nfv:1 phy:0 ring:0',
  ])
  assert.equal(byId(doc, 'nfv:1 phy:0 ring:0'), {
    group: 'edges',
    data: { id: 'nfv:1 phy:0 ring:0', source: 'port phy:0', target: 'port ring:0', label: 'nfv:1' },
    classes: 'patch running',
  })
  assert.is(byId(doc, 'nfv:1')!.data.label, 'nfv 1 (Running)')
  const idle = { ...EMPTY, nfvs: { '1': { ...NFV, status: 'Idle' } } }
  assert.is(byId(idle, 'nfv:1 phy:0 ring:0')!.classes, 'patch idle')
})

test('vf components sit inside their process: rx ports feed them, tx ports are fed, with labels', () => {
  const doc: TopologyDocument = {
    ...EMPTY,
    vfs: {
      '2': {
        'client-id': 2,
        ports: ['phy:0', 'ring:0'],
        components: [
          {
            core: 2,
            type: 'classifier_mac',
            name: 'cls',
            rx_port: [{ port: 'phy:0' }],
            tx_port: [{ port: 'ring:0', vlan: { operation: 'add', id: 100, pcp: 3 } }],
          },
          { core: 3, type: 'unuse' },
        ],
        classifier_table: [{ type: 'mac', value: 'FA:16:3E:7D:CC:35', port: 'ring:0' }],
      },
    },
  }
  assert.equal(ids(doc), [
    'port phy:0',
    'port ring:0',
    'vf:2',
    'vf:2 cls',
    'vf:2 cls rx phy:0',
    'vf:2 cls tx ring:0',
  ])
  assert.is((byId(doc, 'vf:2 cls')!.data as { parent?: string }).parent, 'vf:2')
  const rx = byId(doc, 'vf:2 cls rx phy:0')!.data
  assert.equal([rx.source, rx.target, rx.label], ['port phy:0', 'vf:2 cls', ''])
  const tx = byId(doc, 'vf:2 cls tx ring:0')!.data
  assert.equal(
    [tx.source, tx.target, tx.label],
    ['vf:2 cls', 'port ring:0', 'vlan add 100 pcp 3\nmac FA:16:3E:7D:CC:35'],
  )
})

test('a port a vf lists but no component uses is no node: after a detach or a rollback, as plan sees it', () => {
  // SPP's vf keeps the rings it created: ring:1 was fwd1's rx before a rollback detached it.
  const vf = {
    'client-id': 2,
    ports: ['phy:0', 'phy:1', 'ring:0', 'ring:1'],
    components: [
      { core: 2, type: 'forward', name: 'fwd1', rx_port: [{ port: 'ring:0' }], tx_port: [] },
    ],
  }
  const doc: TopologyDocument = { ...EMPTY, vfs: { '2': vf } }
  assert.equal(ids(doc), ['port ring:0', 'vf:2', 'vf:2 fwd1', 'vf:2 fwd1 rx ring:0'])
  assert.equal(unusedPorts(vf), ['phy:0', 'phy:1', 'ring:1'])
})

test('an unreadable process is still a node, marked as such', () => {
  const doc = { ...EMPTY, mirrors: { '3': { error: 'no reply within 300 ms' } } }
  assert.equal(toElements(doc), [
    {
      group: 'nodes',
      data: { id: 'mirror:3', label: 'mirror 3: unreadable' },
      classes: 'process mirror error',
    },
  ])
})

test('the structure key changes with ids only, not with labels or classes', () => {
  const running = { ...EMPTY, nfvs: { '1': NFV } }
  const idle = { ...EMPTY, nfvs: { '1': { ...NFV, status: 'Idle' } } }
  const more = {
    ...EMPTY,
    nfvs: { '1': { ...NFV, patches: [...NFV.patches, { src: 'ring:0', dst: 'phy:1' }] } },
  }
  assert.is(structureKey(toElements(running)), structureKey(toElements(idle)))
  assert.is.not(structureKey(toElements(running)), structureKey(toElements(more)))
})

test('a 2020 pcap is a node with its status, wired from each port it captures', () => {
  const pcap = {
    'client-id': 4,
    status: 'running',
    core: [
      { core: 2, role: 'receive', rx_port: [{ port: 'phy:0' }] },
      { core: 3, role: 'write' },
    ],
  }
  const doc = { ...EMPTY, pcaps: { '4': pcap } }
  assert.equal(ids(doc), ['port phy:0', 'pcap:4', 'pcap:4 rx phy:0'])
  assert.is(byId(doc, 'pcap:4')!.data.label, 'pcap 4 (running)')
  assert.is(byId(doc, 'pcap:4')!.classes, 'process pcap running')
})

test.run()
