// The paths document as the page words it (rates, edges, problems) and draws it, as input -> output
// tables.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { toElements, type TopologyDocument } from '../../src/ui/graph.js'
import {
  edgeRate,
  problemsOf,
  rateText,
  together,
  type Hop,
  type PathsDocument,
  type Rate,
} from '../../src/ui/hops.js'
import { freshness, recordPushed, type History } from '../../src/ui/rates.js'

const counted = (pps: number | null, counter = 'ring:0 tx'): Rate => ({
  pps,
  source: 'counted',
  counter,
})
const NOT_COUNTED: Rate = { pps: null, source: 'not counted', counter: 'ring:0 rx' }

const NFV_HOP: Hop = {
  id: 'nfv:1 phy:0>ring:0',
  from: 'phy:0',
  to: 'ring:0',
  by: { process: 'nfv:1', kind: 'patch', name: 'phy:0>ring:0', label: 'nfv:1' },
  state: 'running',
  rates: {
    offered: counted(20_000, 'phy:0 rx'),
    delivered: counted(5000),
    dropped: counted(15_000, 'ring:0 tx_drop'),
  },
  verdict: {
    verdict: 'dropping',
    problem: true,
    reason: 'vf:2 fwd1 reads ring:0 slower than its writers send into it',
    port: 'ring:0',
    reader: 'slower',
    readers: ['vf:2 fwd1'],
  },
  next: ['vf:2 fwd1 ring:0>phy:1'],
}
const inferred = { ...counted(5000), source: 'inferred' as const }
const VF_HOP: Hop = {
  id: 'vf:2 fwd1 ring:0>phy:1',
  from: 'ring:0',
  to: 'phy:1',
  by: { process: 'vf:2', kind: 'forward', name: 'fwd1', label: 'vf:2 fwd1' },
  state: 'running',
  rates: { offered: inferred, delivered: inferred, dropped: NOT_COUNTED },
  verdict: { verdict: 'flowing', problem: false, reason: 'packets flow' },
  end: 'leaves',
  next: [],
}
const PATHS: PathsDocument = {
  window_s: 1,
  not_read: [],
  ports: {},
  hops: [NFV_HOP, VF_HOP],
  problems: [NFV_HOP.id],
}

test('a rate: never 0 for what SPP does not count, ≈ when taken from the hop before, … before two reads', () => {
  assert.equal([counted(5000), inferred, NOT_COUNTED, counted(null), counted(0)].map(rateText), [
    '5K pps',
    '≈5K pps',
    'not counted',
    '…',
    '0 pps',
  ])
})

test('hops through one edge: a counter they share is taken once, separate ones added', () => {
  const shared = { ...counted(300), shared_by: 2 }
  assert.equal(together([shared, shared]), shared)
  assert.is(together([counted(100, 'a'), counted(200, 'b')])!.pps, 300)
  assert.is(together([counted(100, 'a'), NOT_COUNTED])!.source, 'not counted')
})

test('an edge into a ring that drops: its rate, what is dropped and why, drawn as dropping', () => {
  assert.equal(edgeRate([{ hop: NFV_HOP, side: 'through' }]), {
    rate: '5K pps',
    lines: ['5K pps', '15K pps dropped', 'dropping: vf:2 fwd1 reads slower'],
    state: 'dropping',
  })
  // the reader's rx edge takes what arrives: not where the drops are
  assert.equal(edgeRate([{ hop: VF_HOP, side: 'in' }]), {
    rate: '≈5K pps',
    lines: ['≈5K pps'],
    state: 'flowing',
  })
  const nobody = { ...NFV_HOP.verdict, reader: 'none' as const, readers: [] }
  assert.is(
    edgeRate([{ hop: { ...NFV_HOP, verdict: nobody }, side: 'through' }]).lines.at(-1),
    'dropping: nothing reads ring:0',
  )
  const idle = { verdict: 'idle', problem: true, reason: 'stopped', stopped: ['nfv:1'] }
  assert.equal(edgeRate([{ hop: { ...NFV_HOP, verdict: idle }, side: 'through' }]).state, 'idle')
})

test('the graph: each edge labelled with its rate and classed by its state; without paths, as before', () => {
  const doc: TopologyDocument = {
    primary: {},
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
        ports: ['ring:0', 'phy:1'],
        components: [
          {
            name: 'fwd1',
            core: 2,
            type: 'forward',
            rx_port: [{ port: 'ring:0' }],
            tx_port: [{ port: 'phy:1' }],
          },
        ],
      },
    },
    mirrors: {},
  }
  const edges = (paths?: PathsDocument) =>
    Object.fromEntries(
      toElements(doc, paths).flatMap((e) =>
        e.group === 'edges' ? [[e.data.id, [e.data.label, e.classes]]] : [],
      ),
    )
  assert.equal(edges(PATHS), {
    'nfv:1 phy:0 ring:0': [
      'nfv:1\n5K pps\n15K pps dropped\ndropping: vf:2 fwd1 reads slower',
      'patch running dropping',
    ],
    'vf:2 fwd1 rx ring:0': ['≈5K pps', 'wire flowing'],
    'vf:2 fwd1 tx phy:1': ['≈5K pps', 'wire flowing'],
  })
  assert.equal(edges(), {
    'nfv:1 phy:0 ring:0': ['nfv:1', 'patch running'],
    'vf:2 fwd1 rx ring:0': ['', 'wire'],
    'vf:2 fwd1 tx phy:1': ['', 'wire'],
  })
})

test('the problems: each with the controller’s reason and what it drops', () => {
  assert.equal(
    problemsOf(PATHS).map((p) => p.text),
    ['vf:2 fwd1 reads ring:0 slower than its writers send into it (15K pps dropped at ring:0)'],
  )
  assert.equal(problemsOf({ ...PATHS, problems: [] }), [])
})

test('pushed rates: a point per push, one in the same second replaces it, a port gone is forgotten', () => {
  const history: History = new Map()
  const port = (pps: number) => ({ 'phy:0': { rx: { value: 0, pps, counted: true } } })
  recordPushed(history, 0, port(10))
  recordPushed(history, 1000, port(20))
  recordPushed(history, 1100, port(30)) // the same read, pushed again to a stream that came back
  assert.equal(
    history.get('phy:0')!.rates.map((r) => [r.t, r.rx, r.tx]),
    [
      [0, 10, null],
      [1100, 30, null],
    ],
  )
  recordPushed(history, 2000, {})
  assert.equal([...history.keys()], [])
})

test('the rates shown are live while pushes come, stale after three periods without', () => {
  assert.equal(
    [
      freshness(1000, undefined, 0, null),
      freshness(6000, undefined, 0, null),
      freshness(3000, 1000, 0, 1),
      freshness(7000, 1000, 0, 1),
      freshness(10_000, 1000, 0, 3),
    ],
    ['waiting', 'stale', 'live', 'stale', 'live'],
  )
})

test.run()
