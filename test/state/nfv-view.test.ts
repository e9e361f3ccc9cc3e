// An nfv's view after each kind of command: view + effect → next view, as a table.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Effect } from '../../src/protocol/effects.ts'
import type { NfvView } from '../../src/state/nfv-view.ts'
import { nextView } from '../../src/state/process-view.ts'

const base: NfvView = {
  kind: 'nfv',
  status: 'Running',
  ports: ['phy:0', 'phy:1', 'ring:0', 'ring:1'],
  patches: [
    { src: 'phy:0', dst: 'ring:0' },
    { src: 'ring:0', dst: 'phy:1' },
    { src: 'ring:1', dst: 'ring:0' },
  ],
}
const info = { 'client-id': 1, status: 'Idle' as const, ports: ['phy:0'], patches: [] }

const TABLE: [string, NfvView, Effect, NfvView | undefined][] = [
  [
    'a read replaces everything',
    base,
    { kind: 'nfv.read', info, shows: { release: '18.11' } as const },
    { kind: 'nfv', status: 'Idle', ports: ['phy:0'], patches: [] },
  ],
  [
    'forward: Running',
    { ...base, status: 'Idle' },
    { kind: 'nfv.forward' },
    { ...base, status: 'Running' },
  ],
  ['stop: Idle', base, { kind: 'nfv.stop' }, { ...base, status: 'Idle' }],
  [
    'add: the port is appended',
    base,
    { kind: 'port.add', port: 'vhost:0' },
    { ...base, ports: [...base.ports!, 'vhost:0'] },
  ],
  ['add of a known port: unchanged', base, { kind: 'port.add', port: 'ring:0' }, base],
  [
    'add before any read: ports stay unknown',
    { kind: 'nfv' },
    { kind: 'port.add', port: 'ring:0' },
    { kind: 'nfv' },
  ],
  [
    'del: the port goes, with its patch and the first patch into it; forwarding stops',
    base,
    { kind: 'port.del', port: 'ring:0' },
    {
      kind: 'nfv',
      status: 'Idle',
      ports: ['phy:0', 'phy:1', 'ring:1'],
      patches: [{ src: 'ring:1', dst: 'ring:0' }],
    },
  ],
  [
    'del of a port that is only a destination: the patch into it goes, the others stay',
    base,
    { kind: 'port.del', port: 'phy:1' },
    {
      kind: 'nfv',
      status: 'Idle',
      ports: ['phy:0', 'ring:0', 'ring:1'],
      patches: [base.patches![0]!, base.patches![2]!],
    },
  ],
  [
    "patch: replaces the source port's patch, ordered by the source's slot",
    base,
    { kind: 'patch.set', src: 'phy:1', dst: 'ring:1' },
    {
      ...base,
      patches: [
        base.patches![0]!,
        { src: 'phy:1', dst: 'ring:1' },
        base.patches![1]!,
        base.patches![2]!,
      ],
    },
  ],
  [
    'patch of the same source again: replaced, not added',
    base,
    { kind: 'patch.set', src: 'phy:0', dst: 'ring:1' },
    { ...base, patches: [{ src: 'phy:0', dst: 'ring:1' }, base.patches![1]!, base.patches![2]!] },
  ],
  [
    'patch to an unknown port: the process ignores it',
    base,
    { kind: 'patch.set', src: 'phy:0', dst: 'ring:9' },
    base,
  ],
  [
    'patch before any read: patches become unknown',
    { kind: 'nfv', ports: ['phy:0'] },
    { kind: 'patch.set', src: 'phy:0', dst: 'phy:0' },
    { kind: 'nfv', ports: ['phy:0'], patches: undefined },
  ],
  ['patch reset: no patches', base, { kind: 'patch.reset' }, { ...base, patches: [] }],
  ['exit: unchanged', base, { kind: 'exit' }, base],
  ["a vf's effect: none for an nfv", base, { kind: 'component.stop', name: 'fw1' }, undefined],
  ["a primary's effect: none for an nfv", base, { kind: 'primary.clear' }, undefined],
]

/** The view after an effect, through nextView (which also turns away another kind's effects). */
const after = (view: NfvView, effect: Effect) => {
  const next = nextView(view, effect, 0)
  return next.ok ? next.value : undefined
}

for (const [name, view, effect, expected] of TABLE) {
  test(name, () => {
    assert.equal(after(view, effect), expected)
  })
}

test("a patch of a new source goes in its source's slot; the same patch again leaves the view as it was", () => {
  const ports = ['phy:0', 'phy:1', 'ring:0', 'ring:1', 'ring:2']
  let view: NfvView = { kind: 'nfv', status: 'Idle', ports, patches: [] }
  for (const [src, dst] of [
    ['ring:1', 'phy:0'],
    ['phy:0', 'ring:0'],
    ['ring:2', 'phy:1'],
    ['phy:1', 'ring:1'],
  ] as const)
    view = after(view, { kind: 'patch.set', src, dst }) as NfvView
  assert.equal(
    view.patches!.map((p) => p.src),
    ['phy:0', 'phy:1', 'ring:1', 'ring:2'],
  )
  assert.is(after(view, { kind: 'patch.set', src: 'phy:1', dst: 'ring:1' }), view)
})

test('the view given is never changed', () => {
  const frozen = structuredClone(base)
  for (const [, view, effect] of TABLE) after(view, effect)
  assert.equal(base, frozen)
})

test.run()
