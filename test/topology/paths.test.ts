// Paths, rates and verdicts worked out from what real SPP reported with packets flowing (the
// traffic recordings, read round by round as the controller would have), and from documents made
// up for what the recordings do not show: one test per verdict and per thing never a problem.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CounterHistory } from '../../src/observe/counter-history.ts'
import { counterRates } from '../../src/observe/counter-rates.ts'
import type { PrimaryStatus } from '../../src/protocol/bodies.ts'
import type { MovingParts } from '../../src/topology/movers.ts'
import type { Hop, PathsDocument } from '../../src/topology/path-document.ts'
import { pathsOf } from '../../src/topology/paths.ts'
import { recordedRounds, type Step } from '../helpers/recorded-traffic.ts'

const NFV_HOP = 'nfv:1 phy:0>ring:0'
const VF_HOP = 'vf:2 fwd1 ring:0>phy:1'

/**
 * Every round of a recording as the controller sees it: the primary's reads kept with their
 * times (the history is started again at the `clear`, as the primary.clear effect does), the
 * nfv's and vf's configuration as their reads showed it.
 */
function walk(commit: '8e72ea0' | 'd5c6c97') {
  const history = new CounterHistory(() => 0)
  return recordedRounds(commit).map((round) => {
    if (round.name === 'clear' && round.read === 0) history.reset()
    history.push(round.primary, round.t * 1000)
    const parts = { primary: round.primary, nfvs: { 1: round.nfv }, vfs: { 2: round.vf } }
    const document = pathsOf({ parts, status: round.primary, rates: counterRates(history.pair()) })
    return { ...round, document }
  })
}
const hopOf = (document: PathsDocument, id: string) => document.hops.find((hop) => hop.id === id)
const verdictOf = (document: PathsDocument, id: string) => hopOf(document, id)?.verdict.verdict

for (const commit of ['8e72ea0', 'd5c6c97'] as const) {
  const rounds = walk(commit)
  const inStep = (name: Step) => rounds.filter((round) => round.name === name)

  test(`${commit}: with nothing configured, each phy port is a path of no hops, no problem`, () => {
    for (const { document } of inStep('nothing')) {
      assert.equal(document.hops, [])
      assert.equal(document.problems, [])
      assert.equal(
        document.paths.map((p) => [p.entry, p.polled, p.verdict, p.arriving.source]),
        [
          ['phy:0', false, null, 'not counted'],
          ['phy:1', false, null, 'not counted'],
        ],
        'a phy port nothing polls: not a problem, and its rx (0) says nothing',
      )
      assert.equal(document.ports['phy:1']!.rx!.counted, false)
      assert.equal(document.ports['phy:1']!.rx!.pps, null)
    }
  })

  test(`${commit}: the nfv forwarding into ring:0 that nobody reads is dropping there, reader none`, () => {
    const [first, ...rest] = inStep('nfv')
    // The first read of the step is taken against the last of the step before, a second earlier.
    for (const { document } of [first!, ...rest]) {
      const hop = hopOf(document, NFV_HOP)!
      assert.is(hop.verdict.verdict, 'dropping')
      assert.is(hop.verdict.reader, 'none')
      assert.is(hop.verdict.port, 'ring:0')
      assert.ok(hop.verdict.problem)
      assert.is(hop.end, 'unread')
      assert.equal(document.problems, [NFV_HOP])
      assert.equal(document.paths[0]!.first, [NFV_HOP])
      assert.is(document.paths[0]!.verdict, 'dropping')
      assert.is(hop.rates.offered.counter, 'phy:0 rx')
      assert.is(hop.rates.dropped.counter, 'ring:0 tx_drop')
      assert.ok(hop.rates.dropped.pps! > 1e6)
    }
    // Δcount/Δt of the recording's own numbers, by their read times.
    const before = rounds[rounds.indexOf(first!) - 1]!
    const rx =
      (first!.primary.phy_ports[0]!.rx - before.primary.phy_ports[0]!.rx) / (first!.t - before.t)
    const offered = hopOf(first!.document, NFV_HOP)!.rates.offered
    assert.equal(offered, { pps: Math.round(rx * 10) / 10, source: 'counted', counter: 'phy:0 rx' })
  })

  test(`${commit}: a reader slower than the source: dropping at ring:0, its reader named; the reader's hop flows`, () => {
    for (const { document } of inStep('vf')) {
      const nfv = hopOf(document, NFV_HOP)!
      assert.is(nfv.verdict.verdict, 'dropping')
      assert.is(nfv.verdict.reader, 'slower')
      assert.equal(nfv.verdict.readers, ['vf:2 fwd1'])
      assert.equal(nfv.next, [VF_HOP])
      assert.is(nfv.end, undefined)
      const vf = hopOf(document, VF_HOP)!
      assert.is(vf.verdict.verdict, 'flowing')
      assert.not.ok(vf.verdict.problem)
      assert.is(vf.end, 'leaves', 'phy:1, where packets leave the host: not a problem')
      // ring:0's rx and phy:1's tx are never counted on these builds: inferred, never 0
      assert.is(vf.rates.offered.source, 'inferred')
      assert.is(vf.rates.offered.counter, 'ring:0 tx')
      assert.is(vf.rates.offered.pps, nfv.rates.delivered.pps)
      assert.ok(vf.rates.offered.pps! > 0)
      assert.is(vf.rates.delivered.source, 'inferred')
      assert.is(vf.rates.dropped.source, 'not counted')
      assert.is(vf.rates.dropped.pps, null)
      assert.equal(document.problems, [NFV_HOP])
      assert.is(document.ports['ring:0']!.rx!.counted, false)
      assert.is(document.ports['ring:0']!.rx!.pps, null)
    }
  })

  test(`${commit}: once the reader is gone every packet is dropped at ring:0 again, reader none`, () => {
    for (const { document } of inStep('vf-stop')) {
      assert.is(hopOf(document, VF_HOP), undefined)
      assert.is(hopOf(document, NFV_HOP)!.verdict.reader, 'none')
      // the vf still lists ring:0, which no component of it uses: no hop, no problem of its own
      assert.equal(document.problems, [NFV_HOP])
    }
  })

  test(`${commit}: a stopped nfv is idle, not dropping, although ring:0's drops grew in the window`, () => {
    const steps = inStep('nfv-stop')
    assert.ok(hopOf(steps[0]!.document, NFV_HOP)!.rates.dropped.pps! > 0)
    for (const { document } of steps) {
      const hop = hopOf(document, NFV_HOP)!
      assert.is(hop.state, 'stopped')
      assert.is(hop.verdict.verdict, 'idle')
      assert.equal(hop.verdict.stopped, ['nfv:1'])
    }
  })

  test(`${commit}: the counters cleared: no rate across the clear, 0s from the next read on`, () => {
    const [first, second] = inStep('clear')
    assert.is(first!.document.window_s, null)
    assert.equal(first!.document.ports['ring:0']!.tx, {
      value: 0,
      pps: null,
      counted: true,
      missing: 'no-window',
    })
    assert.equal(second!.document.ports['ring:0']!.tx, { value: 0, pps: 0, counted: true })
    // Without the reset the history makes at a clear, the counters went down: no rate either.
    const history = new CounterHistory(() => 0)
    const last = inStep('nfv-stop').at(-1)!
    history.push(last.primary, last.t * 1000)
    history.push(first!.primary, first!.t * 1000)
    const rates = counterRates(history.pair())
    assert.equal(rates.counters.get('ring:0 tx_drop'), { value: 0, pps: null, missing: 'reset' })
  })
}

// Made-up configurations, between two reads a second apart.
const NONE = { operation: 'none', id: 0, pcp: 0 }
const use = (port: string) => ({ port, vlan: NONE })
const component = (name: string, type: string, rx: string[], tx: string[], core = 2) => ({
  core,
  name,
  type,
  rx_port: rx.map(use),
  tx_port: tx.map(use),
})
const nfv = (status: 'Running' | 'Idle', ...patches: [string, string][]) => ({
  status,
  patches: patches.map(([src, dst]) => ({ src, dst })),
})
const vf = (...components: ReturnType<typeof component>[]) => ({
  ports: [],
  components,
  classifier_table: [] as { type: string; value: string; port: string }[],
})

/** A primary's status with two phy ports and four rings, counters as named (`phy:0 rx`), else 0. */
function primaryWith(counters: Record<string, number>, release: '2020' | '18.11' = '2020') {
  const count = (port: string, name: string) => counters[`${port} ${name}`] ?? 0
  const status: PrimaryStatus = {
    phy_ports: [0, 1].map((id) => ({
      id,
      eth: `00:00:00:00:00:0${id}`,
      rx: count(`phy:${id}`, 'rx'),
      tx: count(`phy:${id}`, 'tx'),
      tx_drop: count(`phy:${id}`, 'tx_drop'),
    })),
    ring_ports: [0, 1, 2, 3].map((id) => ({
      id,
      rx: count(`ring:${id}`, 'rx'),
      rx_drop: count(`ring:${id}`, 'rx_drop'),
      tx: count(`ring:${id}`, 'tx'),
      tx_drop: count(`ring:${id}`, 'tx_drop'),
    })),
  }
  return release === '2020' ? { 'master-lcore': 0, lcores: [0], ...status } : status
}

/** The paths of a configuration between a read of `before` and one of `after`, a second later. */
function between(
  parts: MovingParts,
  before: Record<string, number> | undefined,
  after: Record<string, number>,
  release: '2020' | '18.11' = '2020',
) {
  const history = new CounterHistory(() => 0)
  if (before) history.push(primaryWith(before, release), 0)
  const status = primaryWith(after, release)
  history.push(status, 1000)
  return pathsOf({
    parts: { ...parts, primary: status },
    status,
    rates: counterRates(history.pair()),
  })
}

/** The recordings' chain: nfv:1 phy:0 -> ring:0, vf:2 fwd1 ring:0 -> phy:1. */
const CHAIN: MovingParts = {
  nfvs: { 1: nfv('Running', ['phy:0', 'ring:0']) },
  vfs: { 2: vf(component('fwd1', 'forward', ['ring:0'], ['phy:1'])) },
}
const verdicts = (document: PathsDocument) =>
  Object.fromEntries(document.hops.map((hop) => [hop.id, hop.verdict.verdict]))

test('dropping, reader stopped: the only reader of the ring is a stopped nfv', () => {
  const document = between(
    { nfvs: { 1: nfv('Running', ['phy:0', 'ring:0']), 3: nfv('Idle', ['ring:0', 'phy:1']) } },
    { 'phy:0 rx': 0, 'ring:0 tx': 127 },
    { 'phy:0 rx': 1000, 'ring:0 tx': 127, 'ring:0 tx_drop': 1000 },
  )
  const hop = hopOf(document, NFV_HOP)!
  assert.is(hop.verdict.verdict, 'dropping')
  assert.is(hop.verdict.reader, 'stopped')
  assert.equal(hop.verdict.readers, ['nfv:3'])
  assert.is(verdictOf(document, 'nfv:3 ring:0>phy:1'), 'idle')
})

test('idle: a running component fed only by a stopped nfv is idle, naming what is stopped', () => {
  const document = between({ ...CHAIN, nfvs: { 1: nfv('Idle', ['phy:0', 'ring:0']) } }, {}, {})
  const hop = hopOf(document, VF_HOP)!
  assert.is(hop.state, 'running')
  assert.is(hop.verdict.verdict, 'idle')
  assert.equal(hop.verdict.stopped, ['nfv:1'])
  assert.equal(document.problems, [NFV_HOP, VF_HOP])
})

test('loop: what two components pass between two rings comes back; the tree still ends', () => {
  const document = between(
    {
      nfvs: { 1: nfv('Running', ['phy:0', 'ring:0']) },
      vfs: {
        2: vf(
          component('fwd1', 'forward', ['ring:0'], ['ring:1']),
          component('fwd2', 'forward', ['ring:1'], ['ring:0'], 3),
        ),
      },
    },
    {},
    { 'phy:0 rx': 100, 'ring:0 tx': 300, 'ring:1 tx': 200 },
  )
  assert.equal(verdicts(document), {
    [NFV_HOP]: 'flowing',
    'vf:2 fwd1 ring:0>ring:1': 'loop',
    'vf:2 fwd2 ring:1>ring:0': 'loop',
  })
  assert.is(hopOf(document, 'vf:2 fwd1 ring:0>ring:1')!.verdict.port, 'ring:0')
  assert.is(document.paths[0]!.verdict, 'loop')
})

test('dead end: a ring written and read by nobody, no drops growing; a port since deleted too', () => {
  const document = between(
    { nfvs: { 1: nfv('Running', ['phy:0', 'ring:1'], ['phy:1', 'udf']) } },
    {},
    {},
  )
  const hop = hopOf(document, 'nfv:1 phy:0>ring:1')!
  assert.is(hop.verdict.verdict, 'dead_end')
  assert.is(hop.verdict.port, 'ring:1')
  assert.ok(hop.verdict.problem)
  assert.is(verdictOf(document, 'nfv:1 phy:1>udf'), 'dead_end')
})

test('unknown: one read of the counters, no rate yet, for a chain that has nothing wrong', () => {
  const document = between(CHAIN, undefined, { 'phy:0 rx': 5 })
  assert.equal(verdicts(document), { [NFV_HOP]: 'unknown', [VF_HOP]: 'unknown' })
  assert.equal(document.problems, [])
  assert.is(hopOf(document, NFV_HOP)!.rates.offered.missing, 'no-window')
  // Into a ring nothing reads: dropping or a dead end, which one waits for a rate.
  const unread = between({ nfvs: CHAIN.nfvs }, undefined, { 'phy:0 rx': 5 })
  assert.equal(verdicts(unread), { [NFV_HOP]: 'unknown' })
})

test('no traffic: the chain runs, nothing arrives at phy:0: no problem', () => {
  const counters = { 'phy:0 rx': 10, 'ring:0 tx': 10 }
  const document = between(CHAIN, counters, counters)
  assert.equal(verdicts(document), { [NFV_HOP]: 'no_traffic', [VF_HOP]: 'no_traffic' })
  assert.is(document.paths[0]!.verdict, 'no_traffic')
  assert.equal(document.problems, [])
})

test('not counted (never a problem): a hop from vhost to vhost, which the primary does not count', () => {
  const document = between(
    { vfs: { 2: vf(component('fwd1', 'forward', ['vhost:0'], ['vhost:1'])) } },
    {},
    {},
  )
  const hop = hopOf(document, 'vf:2 fwd1 vhost:0>vhost:1')!
  assert.is(hop.verdict.verdict, 'not_counted')
  assert.not.ok(hop.verdict.problem)
  assert.equal(
    [hop.rates.offered, hop.rates.delivered].map((rate) => [rate.pps, rate.source, rate.counter]),
    [
      [null, 'not counted', 'vhost:0 rx'],
      [null, 'not counted', 'vhost:1 tx'],
    ],
  )
  assert.equal(
    document.paths.map((path) => [path.entry, path.first]),
    [
      ['phy:0', []],
      ['phy:1', []],
      ['vhost:0', ['vf:2 fwd1 vhost:0>vhost:1']],
    ],
  )
})

test('never a problem: drops that stopped growing', () => {
  const document = between(
    CHAIN,
    { 'phy:0 rx': 5000, 'ring:0 tx': 1000, 'ring:0 tx_drop': 4000 },
    { 'phy:0 rx': 6000, 'ring:0 tx': 2000, 'ring:0 tx_drop': 4000 },
  )
  assert.equal(verdicts(document), { [NFV_HOP]: 'flowing', [VF_HOP]: 'flowing' })
  assert.is(hopOf(document, NFV_HOP)!.rates.dropped.pps, 0)
})

test("never a problem: 18.11's phy tx_drop, which follows the drops downstream; 2020's is the port's own", () => {
  const counters = { 'phy:0 rx': 1000, 'ring:0 tx': 1000, 'phy:1 tx_drop': 900 }
  const old = between(CHAIN, {}, counters, '18.11')
  const vfHop = hopOf(old, VF_HOP)!
  assert.is(vfHop.verdict.verdict, 'flowing')
  assert.is(vfHop.rates.dropped.source, 'not counted')
  assert.match(vfHop.rates.dropped.note!, /downstream/)
  assert.match(old.ports['phy:1']!.tx_drop!.note!, /downstream/)
  assert.equal(old.problems, [])
  // The same counters from a 2020 primary: phy:1's own drops, growing: where packets are lost.
  const late = between(CHAIN, {}, counters, '2020')
  assert.is(verdictOf(late, VF_HOP), 'dropping')
  assert.is(hopOf(late, VF_HOP)!.rates.dropped.counter, 'phy:1 tx_drop')
})

test('never a problem: a ring no SPP process reads whose tx grows without drops (an application reads it)', () => {
  const document = between(
    { nfvs: { 1: nfv('Running', ['phy:0', 'ring:0']) } },
    {},
    { 'phy:0 rx': 800, 'ring:0 tx': 800 },
  )
  const hop = hopOf(document, NFV_HOP)!
  assert.is(hop.verdict.verdict, 'flowing')
  assert.match(hop.verdict.reason, /application/)
  assert.is(hop.end, 'unread')
  assert.equal(document.problems, [])
})

test('never a problem: rings a vf lists but no component uses, and rings nobody uses', () => {
  // as a vf reads: it lists every port it has made, used by a component or not
  const listing = { ...vf(), ports: ['phy:0', 'ring:2', 'ring:3'] }
  const document = between({ ...CHAIN, vfs: { 2: listing } }, {}, {})
  assert.equal(
    document.hops.map((hop) => hop.to),
    ['ring:0'],
  )
  assert.equal(
    document.paths.map((path) => path.entry),
    ['phy:0', 'phy:1'],
  )
  assert.equal(document.problems, [NFV_HOP], 'ring:0, which the nfv writes: a dead end')
  assert.is(document.ports['ring:2']!.tx!.value, 0)
})

test('a counter that does grow is used, even one the recordings never saw count', () => {
  const document = between(
    CHAIN,
    {},
    { 'phy:0 rx': 100, 'ring:0 tx': 100, 'ring:0 rx': 90, 'phy:1 tx': 90 },
  )
  const hop = hopOf(document, VF_HOP)!
  assert.equal(
    [hop.rates.offered, hop.rates.delivered].map((rate) => [rate.pps, rate.source, rate.counter]),
    [
      [90, 'counted', 'ring:0 rx'],
      [90, 'counted', 'phy:1 tx'],
    ],
  )
  assert.is(document.ports['ring:0']!.rx!.counted, true)
})

test('branches: a classifier splits by its table, a mirror copies, two readers share one ring', () => {
  const table = [
    { type: 'mac', value: 'aa:bb:cc:dd:ee:01', port: 'ring:1' },
    { type: 'mac', value: 'aa:bb:cc:dd:ee:02', port: 'ring:2' },
  ]
  const document = between(
    {
      nfvs: { 1: nfv('Running', ['phy:0', 'ring:0']), 4: nfv('Running', ['ring:2', 'phy:1']) },
      vfs: {
        2: {
          ...vf(
            component('cls1', 'classifier', ['ring:0'], ['ring:1', 'ring:2']),
            component('fwd2', 'forward', ['ring:2'], ['vhost:1'], 3),
          ),
          classifier_table: table,
        },
      },
      mirrors: {
        3: { components: [component('mr1', 'mirror', ['ring:1'], ['ring:3', 'vhost:0'])] },
      },
    },
    {},
    { 'phy:0 rx': 100, 'ring:0 tx': 100, 'ring:1 tx': 60, 'ring:2 tx': 40, 'ring:3 tx': 60 },
  )
  const cls = hopOf(document, NFV_HOP)!.next
  assert.equal(cls, ['vf:2 cls1 ring:0>ring:1', 'vf:2 cls1 ring:0>ring:2'])
  assert.equal(hopOf(document, cls[0]!)!.table, [table[0]])
  assert.equal(hopOf(document, cls[0]!)!.next, [
    'mirror:3 mr1 ring:1>ring:3',
    'mirror:3 mr1 ring:1>vhost:0',
  ])
  const shared = hopOf(document, cls[1]!)!.next
  assert.equal(shared, ['nfv:4 ring:2>phy:1', 'vf:2 fwd2 ring:2>vhost:1'])
  // two readers of ring:2: what each takes is not known (never inferred from the ring's tx)
  for (const id of shared) assert.is(hopOf(document, id)!.rates.offered.source, 'not counted')
  // the mirror copies all it takes to each tx: both are inferred from ring:1's tx
  const copy = hopOf(document, 'mirror:3 mr1 ring:1>vhost:0')!
  assert.equal([copy.rates.delivered.pps, copy.rates.delivered.source], [60, 'inferred'])
  assert.is(
    verdictOf(document, 'mirror:3 mr1 ring:1>ring:3'),
    'flowing',
    'an application reads ring:3',
  )
})

test("a 2020 primary's forwarder and a pcap's capture move packets too", () => {
  const document = between(
    {
      pcaps: {
        4: { status: 'running', core: [{ role: 'receive', rx_port: [{ port: 'phy:1' }] }] },
      },
    },
    {},
    { 'phy:0 rx': 10, 'ring:1 tx': 10, 'phy:1 rx': 5 },
  )
  assert.equal(verdicts(document), { 'pcap:4 receive phy:1>file': 'flowing' })
  const capture = hopOf(document, 'pcap:4 receive phy:1>file')!
  assert.equal([capture.to, capture.end, capture.rates.delivered.counter], [null, 'captured', null])
  const status = primaryWith({ 'phy:0 rx': 10, 'ring:1 tx': 10 })
  const forwarder = {
    ...status,
    forwarder: {
      status: 'running',
      ports: ['phy:0', 'ring:1'],
      patches: [{ src: 'phy:0', dst: 'ring:1' }],
    },
  }
  const history = new CounterHistory(() => 0)
  history.push(primaryWith({}), 0)
  history.push(forwarder, 1000)
  const withForwarder = pathsOf({
    parts: { primary: forwarder },
    status: forwarder,
    rates: counterRates(history.pair()),
  })
  assert.equal(verdicts(withForwarder), { 'primary phy:0>ring:1': 'flowing' })
})

test('every hop a path reaches is listed once, and each path names its first hops', () => {
  const document = between(CHAIN, {}, { 'phy:0 rx': 1, 'ring:0 tx': 1 })
  const ids = document.hops.map((hop: Hop) => hop.id)
  assert.equal(ids, [NFV_HOP, VF_HOP])
  assert.equal(new Set(ids).size, ids.length)
  assert.equal(document.paths[0]!.first, [NFV_HOP])
})

test.run()
