// Which component starts would hang a vf or mirror, judged from its view: input → verdict tables.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Change } from '../../src/protocol/effects.ts'
import { hazardOf, needsView, ringHazard, workerCores } from '../../src/state/hazards.ts'
import type { ProcessView } from '../../src/state/process-view.ts'

const vf: ProcessView = {
  kind: 'vf',
  components: [
    { core: 4, type: 'unuse' },
    { core: 2, name: 'cls', type: 'classifier_mac' },
    { core: 2, name: 'fw1', type: 'forward' },
  ],
}
const mirror: ProcessView = { kind: 'mirror', components: [{ core: 3, type: 'unuse' }] }
const start = (core: number, type = 'forward'): Change => ({
  kind: 'component.start',
  name: 'x',
  core,
  type,
})

test('worker cores: each core listed once, in order; none before a read or for other kinds', () => {
  assert.equal(workerCores(vf), [2, 4])
  assert.equal(workerCores(mirror), [3])
  assert.equal(workerCores({ kind: 'vf', components: [] }), [])
  assert.is(workerCores({ kind: 'vf' }), undefined)
  assert.is(workerCores({ kind: 'nfv' }), undefined)
})

const nfv: ProcessView = {
  kind: 'nfv',
  ports: ['phy:0', 'phy:1 nq 0', 'phy:1 nq 1', 'ring:0'],
  patches: [{ src: 'phy:0', dst: 'ring:0' }],
}
const patch = (src: string, dst: string): Change => ({ kind: 'patch.set', src, dst })
const ring = (id: number) => ({ id, rx: 0, rx_drop: 0, tx: 0, tx_drop: 0 })
const primary: ProcessView = {
  kind: 'primary',
  status: {
    phy_ports: [],
    ring_ports: [0, 1, 2, 3].map(ring),
    forwarder: { status: 'idling', ports: ['phy:0', 'ring:3'], patches: [] },
    pipes: [{ id: 0, rx: 0, tx: 1 }],
  },
}

const TABLE: [string, ProcessView, Change, RegExp | undefined][] = [
  ['an unused worker core is fine', vf, start(4), undefined],
  ['a core that runs components is fine for a forward', vf, start(2), undefined],
  [
    'the main lcore (not listed) is refused, naming the worker cores',
    vf,
    start(1),
    /^invalid key\(core\): 1 \(not a worker lcore of this vf: its worker lcores are 2, 4; the main lcore would hang it\)$/,
  ],
  [
    'a mirror with no worker cores refuses every core',
    { kind: 'mirror', components: [] },
    start(3, 'mirror'),
    /its worker lcores are none/,
  ],
  ['a mirror on its worker core is fine', mirror, start(3, 'mirror'), undefined],
  [
    'a second classifier_mac on a core that runs one is refused',
    vf,
    start(2, 'classifier_mac'),
    /^invalid key\(core\): 2 \(already runs a classifier_mac/,
  ],
  ['a classifier_mac on a core without one is fine', vf, start(4, 'classifier_mac'), undefined],
  ['before any read nothing is known, so nothing is refused', { kind: 'vf' }, start(1), undefined],
  ['other changes are never hazards', vf, { kind: 'component.stop', name: 'fw1' }, undefined],
  [
    'a second component of a name is refused first, naming it',
    vf,
    { kind: 'component.start', name: 'fw1', core: 4, type: 'forward' },
    /^invalid key\(name\): "fw1" \(this vf already runs a component of that name\)$/,
  ],
  [
    'a mirror too',
    { kind: 'mirror', components: [{ core: 2, name: 'mr1', type: 'mirror' }] },
    { kind: 'component.start', name: 'mr1', core: 2, type: 'mirror' },
    /^invalid key\(name\): "mr1" \(this mirror already runs/,
  ],
  ['an nfv may add a port', nfv, { kind: 'port.add', port: 'ring:1' }, undefined],
  ['an nfv patch of its own ports is fine', nfv, patch('phy:0', 'ring:0'), undefined],
  [
    'an nfv patch to a port it does not have is refused, naming it and its ports',
    nfv,
    patch('phy:0', 'ring:7'),
    /^invalid key\(dst\): "ring:7" \(not a port of this nfv: its ports are phy:0, phy:1 nq 0, phy:1 nq 1, ring:0\)$/,
  ],
  ['a queue is the port as listed', nfv, patch('phy:1nq1', 'phy:0'), undefined],
  [
    'a source it does not have too',
    nfv,
    patch('vhost:0', 'phy:0'),
    /^invalid key\(src\): "vhost:0"/,
  ],
  [
    'deleting a port another is patched to is refused: the patch would be left to udf',
    nfv,
    { kind: 'port.del', port: 'ring:0' },
    /^invalid key\(port\): "ring:0" \(phy:0 is patched to it: .*udf; reset the patches first\)$/,
  ],
  [
    'deleting a port patched from (not to) is fine',
    nfv,
    { kind: 'port.del', port: 'phy:0' },
    undefined,
  ],
  [
    'a primary add of a ring beyond its -n is refused',
    primary,
    { kind: 'port.add', port: 'ring:4' },
    /^invalid key\(port\): "ring:4" \(the primary has no ring:4: its rings are ring:0 to ring:3; the primary would fail/,
  ],
  ['a primary add of a new ring is fine', primary, { kind: 'port.add', port: 'ring:2' }, undefined],
  [
    'a primary add of a port its forwarder lists is refused',
    primary,
    { kind: 'port.add', port: 'ring:3' },
    /^invalid key\(port\): "ring:3" \(the primary has it already/,
  ],
  [
    'a primary add of a pipe it lists is refused',
    primary,
    { kind: 'port.add', port: 'pipe:0' },
    /^invalid key\(port\): "pipe:0" \(the primary has it already/,
  ],
  ['a new pipe is fine', primary, { kind: 'port.add', port: 'pipe:1' }, undefined],
]

for (const [name, view, change, expected] of TABLE) {
  test(name, () => {
    const hazard = hazardOf(view, change)
    if (expected === undefined) assert.is(hazard, undefined)
    else assert.match(hazard ?? '', expected)
  })
}

test('a view is read first where the verdict needs it, and only there', () => {
  const start = { kind: 'component.start', name: 'x', core: 2, type: 'forward' } as const
  assert.ok(needsView({ kind: 'vf' }, start))
  assert.not.ok(needsView(vf, start))
  assert.ok(needsView({ kind: 'nfv' }, patch('phy:0', 'ring:0')))
  assert.ok(needsView({ kind: 'nfv', ports: [] }, { kind: 'port.del', port: 'ring:0' }))
  assert.not.ok(needsView({ kind: 'nfv' }, { kind: 'port.add', port: 'ring:0' }))
  assert.not.ok(needsView(nfv, patch('phy:0', 'ring:0')))
  assert.ok(needsView({ kind: 'primary' }, { kind: 'port.add', port: 'ring:0' }))
  assert.not.ok(needsView(primary, { kind: 'port.add', port: 'ring:0' }))
})

test("a ring beyond the primary's -n, for any process; unknown rings refuse nothing", () => {
  assert.match(
    ringHazard(primary, 'ring:9', 'X') ?? '',
    /^invalid key\(port\): "ring:9" .*ring:3; X\)$/,
  )
  assert.is(ringHazard(primary, 'ring:3', 'X'), undefined)
  assert.is(ringHazard(primary, 'vhost:9', 'X'), undefined)
  assert.is(ringHazard(undefined, 'ring:9', 'X'), undefined)
  assert.is(ringHazard({ kind: 'primary' }, 'ring:9', 'X'), undefined)
})

test.run()
