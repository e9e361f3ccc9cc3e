// A vf's or mirror's view after each kind of command: view + effect → next view, as a table.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Effect } from '../../src/protocol/effects.ts'
import type { ComponentEntry } from '../../src/protocol/bodies.ts'
import type { ComponentView } from '../../src/state/component-view.ts'
import { nextView } from '../../src/state/process-view.ts'

const NONE = { operation: 'none', id: 0, pcp: 0 }
const fw1: ComponentEntry = {
  core: 2,
  name: 'fw1',
  type: 'forward',
  rx_port: [{ port: 'ring:0', vlan: NONE }],
  tx_port: [],
}
const vf: ComponentView = {
  kind: 'vf',
  ports: ['phy:0', 'ring:0'],
  components: [fw1, { core: 3, type: 'unuse' }],
  classifier_table: [{ type: 'mac', value: '00:00:00:00:00:01', port: 'ring:0' }],
}
const mirror: ComponentView = {
  kind: 'mirror',
  ports: ['phy:0'],
  components: [{ core: 2, type: 'unuse' }],
}
const fresh = (core: number, name: string, type: string): ComponentEntry => ({
  core,
  name,
  type,
  rx_port: [],
  tx_port: [],
})

const TABLE: [string, ComponentView, Effect, ComponentView | undefined][] = [
  [
    'a vf read replaces everything',
    vf,
    {
      kind: 'vf.read',
      shows: { release: '18.11' } as const,
      info: { 'client-id': 2, ports: ['phy:0'], components: [], classifier_table: [] },
    },
    { kind: 'vf', ports: ['phy:0'], components: [], classifier_table: [] },
  ],
  [
    'a mirror read has no classifier table',
    mirror,
    {
      kind: 'mirror.read',
      info: { 'client-id': 3, ports: [], components: [] },
      shows: { release: '18.11' } as const,
    },
    { kind: 'mirror', ports: [], components: [] },
  ],
  [
    "a vf's read is not a mirror's",
    mirror,
    {
      kind: 'vf.read',
      info: { 'client-id': 2, ports: [], components: [], classifier_table: [] },
      shows: { release: '18.11' } as const,
    },
    undefined,
  ],
  [
    'start on an unused core replaces its unuse entry, in place',
    vf,
    { kind: 'component.start', name: 'fw2', core: 3, type: 'merge' },
    { ...vf, components: [fw1, fresh(3, 'fw2', 'merge')] },
  ],
  [
    'start on a core that runs one goes after it',
    { ...vf, components: [fw1, { core: 3, type: 'unuse' }] },
    { kind: 'component.start', name: 'fw2', core: 2, type: 'forward' },
    { ...vf, components: [fw1, fresh(2, 'fw2', 'forward'), { core: 3, type: 'unuse' }] },
  ],
  [
    'start on a core not listed goes last',
    vf,
    { kind: 'component.start', name: 'fw2', core: 5, type: 'forward' },
    { ...vf, components: [fw1, { core: 3, type: 'unuse' }, fresh(5, 'fw2', 'forward')] },
  ],
  [
    'start before any read: components stay unknown',
    { kind: 'vf' },
    { kind: 'component.start', name: 'fw2', core: 3, type: 'merge' },
    { kind: 'vf' },
  ],
  [
    'stop of the last component on a core leaves an unuse entry in its place',
    vf,
    { kind: 'component.stop', name: 'fw1' },
    {
      ...vf,
      components: [
        { core: 2, type: 'unuse' },
        { core: 3, type: 'unuse' },
      ],
    },
  ],
  [
    'stop of one of two components on a core leaves the other',
    { ...vf, components: [fw1, fresh(2, 'fw2', 'merge')] },
    { kind: 'component.stop', name: 'fw1' },
    { ...vf, components: [fresh(2, 'fw2', 'merge')] },
  ],
  ['stop of an unknown name: unchanged', vf, { kind: 'component.stop', name: 'nope' }, vf],
  [
    'attach with a vlan tag: the port carries it; a new ring becomes a known port, in order',
    vf,
    {
      kind: 'port.attach',
      component: 'fw1',
      port: 'ring:1',
      dir: 'tx',
      vlan: { operation: 'add', id: 10, pcp: 3 },
    },
    {
      ...vf,
      ports: ['phy:0', 'ring:0', 'ring:1'],
      components: [
        { ...fw1, tx_port: [{ port: 'ring:1', vlan: { operation: 'add', id: 10, pcp: 3 } }] },
        { core: 3, type: 'unuse' },
      ],
    },
  ],
  [
    'attach with del_vlantag: operation del, id and pcp zero',
    vf,
    {
      kind: 'port.attach',
      component: 'fw1',
      port: 'phy:0',
      dir: 'tx',
      vlan: { operation: 'del' },
    },
    {
      ...vf,
      components: [
        { ...fw1, tx_port: [{ port: 'phy:0', vlan: { operation: 'del', id: 0, pcp: 0 } }] },
        { core: 3, type: 'unuse' },
      ],
    },
  ],
  [
    'attach again to the same direction: replaced, not doubled',
    vf,
    { kind: 'port.attach', component: 'fw1', port: 'ring:0', dir: 'rx' },
    vf,
  ],
  [
    'a mirror port has no vlan field',
    { ...mirror, components: [fresh(2, 'mr1', 'mirror')] },
    { kind: 'port.attach', component: 'mr1', port: 'phy:0', dir: 'rx' },
    { ...mirror, components: [{ ...fresh(2, 'mr1', 'mirror'), rx_port: [{ port: 'phy:0' }] }] },
  ],
  [
    'detach: the port leaves the component but stays a known port',
    vf,
    { kind: 'port.detach', component: 'fw1', port: 'ring:0', dir: 'rx' },
    {
      ...vf,
      components: [
        { ...fw1, rx_port: [] },
        { core: 3, type: 'unuse' },
      ],
    },
  ],
  [
    'classifier add (vlan): value is vlan/mac; an entry for the port is replaced',
    vf,
    { kind: 'classifier.add', type: 'vlan', vlan: 7, mac: '00:00:00:00:00:02', port: 'ring:0' },
    {
      ...vf,
      classifier_table: [{ type: 'vlan', value: '7/00:00:00:00:00:02', port: 'ring:0' }],
    },
  ],
  [
    'classifier add (mac): appended',
    vf,
    { kind: 'classifier.add', type: 'mac', mac: 'default', port: 'phy:0' },
    {
      ...vf,
      classifier_table: [...vf.classifier_table!, { type: 'mac', value: 'default', port: 'phy:0' }],
    },
  ],
  [
    'classifier del: the entry of the port goes',
    vf,
    { kind: 'classifier.del', type: 'mac', mac: '00:00:00:00:00:01', port: 'ring:0' },
    { ...vf, classifier_table: [] },
  ],
  [
    'a mirror has no classifier',
    mirror,
    { kind: 'classifier.del', type: 'mac', mac: 'default', port: 'ring:0' },
    undefined,
  ],
  ['exit: unchanged', vf, { kind: 'exit' }, vf],
  ["an nfv's effect: none for a vf", vf, { kind: 'nfv.forward' }, undefined],
]

/** The view after an effect, through nextView (which also turns away another kind's effects). */
const after = (view: ComponentView, effect: Effect) => {
  const next = nextView(view, effect, 0)
  return next.ok ? next.value : undefined
}

for (const [name, view, effect, expected] of TABLE) {
  test(name, () => assert.equal(after(view, effect), expected))
}

test('the view given is never changed', () => {
  const before = structuredClone([vf, mirror])
  for (const [, view, effect] of TABLE) after(view, effect)
  assert.equal([vf, mirror], before)
})

test.run()
