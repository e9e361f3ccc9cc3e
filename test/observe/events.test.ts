// What each finished command tells the event stream: (reply, view before, view after) → events.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandEvents, type EventDraft } from '../../src/observe/events.ts'
import type { Effect } from '../../src/protocol/effects.ts'
import { fail, ok } from '../../src/protocol/result.ts'
import type { ProcessView } from '../../src/state/process-view.ts'

const nfv = (status?: 'Running' | 'Idle'): ProcessView =>
  status ? { kind: 'nfv', status } : { kind: 'nfv' }
const vf: ProcessView = { kind: 'vf' }
const info = { 'client-id': 1, ports: [], patches: [] }

const TABLE: [string, Effect, ProcessView, ProcessView, EventDraft[]][] = [
  [
    'a read that changes nothing tells nothing',
    { kind: 'nfv.read', info: { ...info, status: 'Idle' }, shows: { release: '18.11' } as const },
    nfv('Idle'),
    nfv('Idle'),
    [],
  ],
  [
    'a read that finds the nfv Running tells its status',
    {
      kind: 'nfv.read',
      info: { ...info, status: 'Running' },
      shows: { release: '18.11' } as const,
    },
    nfv('Idle'),
    nfv('Running'),
    [{ type: 'nfv.status', data: { status: 'Running' } }],
  ],
  [
    'the first read tells the status it finds',
    { kind: 'nfv.read', info: { ...info, status: 'Idle' }, shows: { release: '18.11' } as const },
    nfv(),
    nfv('Idle'),
    [{ type: 'nfv.status', data: { status: 'Idle' } }],
  ],
  [
    'forward: Running',
    { kind: 'nfv.forward' },
    nfv('Idle'),
    nfv('Running'),
    [{ type: 'nfv.status', data: { status: 'Running' } }],
  ],
  ['forward while Running: nothing', { kind: 'nfv.forward' }, nfv('Running'), nfv('Running'), []],
  [
    'del while Running: the status change, then the deletion',
    { kind: 'port.del', port: 'ring:0' },
    nfv('Running'),
    nfv('Idle'),
    [
      { type: 'nfv.status', data: { status: 'Idle' } },
      { type: 'port.deleted', data: { port: 'ring:0' } },
    ],
  ],
  [
    'add',
    { kind: 'port.add', port: 'ring:1' },
    nfv(),
    nfv(),
    [{ type: 'port.added', data: { port: 'ring:1' } }],
  ],
  [
    'patch',
    { kind: 'patch.set', src: 'phy:0', dst: 'ring:0' },
    nfv(),
    nfv(),
    [{ type: 'patch.set', data: { src: 'phy:0', dst: 'ring:0' } }],
  ],
  ['patch reset', { kind: 'patch.reset' }, nfv(), nfv(), [{ type: 'patches.reset', data: {} }]],
  [
    'clear',
    { kind: 'primary.clear' },
    { kind: 'primary' },
    { kind: 'primary' },
    [{ type: 'primary.stats.cleared', data: {} }],
  ],
  ['exit tells nothing', { kind: 'exit' }, vf, vf, []],
  [
    'component start',
    { kind: 'component.start', name: 'fw1', core: 2, type: 'forward' },
    vf,
    vf,
    [{ type: 'component.started', data: { name: 'fw1', core: 2, type: 'forward' } }],
  ],
  [
    'component stop',
    { kind: 'component.stop', name: 'fw1' },
    vf,
    vf,
    [{ type: 'component.stopped', data: { name: 'fw1' } }],
  ],
  [
    'attach with a vlan tag carries it',
    {
      kind: 'port.attach',
      component: 'fw1',
      port: 'ring:0',
      dir: 'rx',
      vlan: { operation: 'add', id: 5, pcp: 1 },
    },
    vf,
    vf,
    [
      {
        type: 'port.attached',
        data: {
          component: 'fw1',
          port: 'ring:0',
          dir: 'rx',
          vlan: { operation: 'add', id: 5, pcp: 1 },
        },
      },
    ],
  ],
  [
    'attach without one has no vlan field',
    { kind: 'port.attach', component: 'fw1', port: 'ring:0', dir: 'tx' },
    vf,
    vf,
    [{ type: 'port.attached', data: { component: 'fw1', port: 'ring:0', dir: 'tx' } }],
  ],
  [
    'detach',
    { kind: 'port.detach', component: 'fw1', port: 'ring:0', dir: 'tx' },
    vf,
    vf,
    [{ type: 'port.detached', data: { component: 'fw1', port: 'ring:0', dir: 'tx' } }],
  ],
  [
    'classifier add (vlan) names the vlan and the mac address',
    { kind: 'classifier.add', type: 'vlan', vlan: 7, mac: 'default', port: 'ring:0' },
    vf,
    vf,
    [
      {
        type: 'classifier.added',
        data: { type: 'vlan', vlan: 7, mac_address: 'default', port: 'ring:0' },
      },
    ],
  ],
  [
    'classifier del (mac) has no vlan field',
    { kind: 'classifier.del', type: 'mac', mac: '00:00:00:00:00:01', port: 'ring:0' },
    vf,
    vf,
    [
      {
        type: 'classifier.removed',
        data: { type: 'mac', mac_address: '00:00:00:00:00:01', port: 'ring:0' },
      },
    ],
  ],
]

for (const [name, effect, before, after, expected] of TABLE) {
  test(name, () => assert.equal(commandEvents('the line', ok(effect), before, after), expected))
}

test('a failure is one command.failed naming the line, the code and the message, whatever else', () => {
  const reply = fail<Effect>('no reply within 300 ms', 'REPLY_TIMEOUT')
  assert.equal(commandEvents('forward', reply, nfv('Idle'), nfv('Running')), [
    {
      type: 'command.failed',
      data: { command: 'forward', error: 'REPLY_TIMEOUT', message: 'no reply within 300 ms' },
    },
  ])
})

test.run()
