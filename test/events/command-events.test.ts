import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandEvents } from '../../src/events/command-events.ts'
import { fail, ok } from '../../src/protocol/result.ts'

const done = ok(undefined)

test('each successful command becomes the event of what it changed', () => {
  const cases: [Parameters<typeof commandEvents>[0], string, unknown][] = [
    ['nfv', 'add ring:0', [{ type: 'port.added', data: { port: 'ring:0' } }]],
    ['nfv', 'del vhost:1', [{ type: 'port.deleted', data: { port: 'vhost:1' } }]],
    ['nfv', 'patch phy:0 ring:0', [{ type: 'patch.set', data: { src: 'phy:0', dst: 'ring:0' } }]],
    ['nfv', 'patch reset', [{ type: 'patches.reset', data: {} }]],
    ['primary', 'clear', [{ type: 'primary.stats.cleared', data: {} }]],
    ['primary', 'status', []],
    [
      'vf',
      'component start fw1 2 forward',
      [{ type: 'component.started', data: { name: 'fw1', core: 2, type: 'forward' } }],
    ],
    ['mirror', 'component stop mr1', [{ type: 'component.stopped', data: { name: 'mr1' } }]],
    [
      'vf',
      'port add ring:0 rx fw1',
      [{ type: 'port.attached', data: { component: 'fw1', port: 'ring:0', dir: 'rx' } }],
    ],
    [
      'vf',
      'port add ring:0 tx fw1 add_vlantag 100 3',
      [
        {
          type: 'port.attached',
          data: {
            component: 'fw1',
            port: 'ring:0',
            dir: 'tx',
            vlan: { operation: 'add', id: 100, pcp: 3 },
          },
        },
      ],
    ],
    [
      'vf',
      'port add ring:0 tx fw1 del_vlantag',
      [
        {
          type: 'port.attached',
          data: { component: 'fw1', port: 'ring:0', dir: 'tx', vlan: { operation: 'del' } },
        },
      ],
    ],
    [
      'vf',
      'port del ring:0 tx fw1',
      [{ type: 'port.detached', data: { component: 'fw1', port: 'ring:0', dir: 'tx' } }],
    ],
    [
      'vf',
      'classifier_table add mac FA:16:3E:7D:CC:35 ring:0',
      [
        {
          type: 'classifier.added',
          data: { type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
        },
      ],
    ],
    [
      'vf',
      'classifier_table del vlan 475 default ring:1',
      [
        {
          type: 'classifier.removed',
          data: { type: 'vlan', vlan: 475, mac_address: 'default', port: 'ring:1' },
        },
      ],
    ],
    ['vf', 'status', []],
  ]
  for (const [kind, line, expected] of cases)
    assert.equal(commandEvents(kind, line, done, {}, {}), expected, line)
})

test('Running/Idle changes are events however they were learned; no change, no event', () => {
  assert.equal(commandEvents('nfv', 'forward', done, { status: 'Idle' }, { status: 'Running' }), [
    { type: 'nfv.status', data: { status: 'Running' } },
  ])
  assert.equal(commandEvents('nfv', 'status', done, {}, { status: 'Idle' }), [
    { type: 'nfv.status', data: { status: 'Idle' } },
  ])
  assert.equal(commandEvents('nfv', 'status', done, { status: 'Idle' }, { status: 'Idle' }), [])
})

test('a failed command is a command.failed event with its code and message, whatever it was', () => {
  assert.equal(
    commandEvents(
      'vf',
      'component start fw1 2 forward',
      fail('command error: bad value(component name)', 'COMMAND_REJECTED'),
      {},
      {},
    ),
    [
      {
        type: 'command.failed',
        data: {
          command: 'component start fw1 2 forward',
          error: 'COMMAND_REJECTED',
          message: 'command error: bad value(component name)',
        },
      },
    ],
  )
})

test.run()
