// Which component starts would hang a vf or mirror, judged from its view: input → verdict tables.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Change } from '../../src/protocol/effects.ts'
import { hazardOf, workerCores } from '../../src/state/hazards.ts'
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
  ['nfvs have none', { kind: 'nfv' }, { kind: 'port.add', port: 'ring:0' }, undefined],
]

for (const [name, view, change, expected] of TABLE) {
  test(name, () => {
    const hazard = hazardOf(view, change)
    if (expected === undefined) assert.is(hazard, undefined)
    else assert.match(hazard ?? '', expected)
  })
}

test.run()
