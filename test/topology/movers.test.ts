// What moves packets, read from topology and desired documents of both releases.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { deviceOf, moversOf, readersOf, writersOf } from '../../src/topology/movers.ts'

const NONE = { operation: 'none', id: 0, pcp: 0 }
const use = (port: string) => ({ port, vlan: NONE })

// The chain of the traffic recordings (../shared/real-spp), as GET /v1/topology shows it.
const CHAIN = {
  primary: { phy_ports: [], ring_ports: [] },
  nfvs: {
    '1': {
      'client-id': 1,
      status: 'Running',
      ports: ['phy:0', 'phy:1', 'ring:0'],
      patches: [{ src: 'phy:0', dst: 'ring:0' }],
    },
  },
  vfs: {
    '2': {
      'client-id': 2,
      ports: ['phy:0', 'phy:1', 'ring:0'],
      components: [
        {
          core: 2,
          name: 'fwd1',
          type: 'forward',
          rx_port: [use('ring:0')],
          tx_port: [use('phy:1')],
        },
        { core: 3, type: 'unuse' },
      ],
      classifier_table: [],
    },
  },
  mirrors: {},
}

test('an nfv patch and a vf forward component are the movers of the recorded chain', () => {
  assert.equal(moversOf(CHAIN), [
    {
      process: 'nfv:1',
      name: 'phy:0>ring:0',
      kind: 'patch',
      reads: ['phy:0'],
      writes: ['ring:0'],
      running: true,
    },
    {
      process: 'vf:2',
      name: 'fwd1',
      kind: 'forward',
      reads: ['ring:0'],
      writes: ['phy:1'],
      running: true,
    },
  ])
})

test('an Idle nfv and an idling 2020 forwarder keep their patches, not running', () => {
  const movers = moversOf({
    primary: {
      forwarder: {
        status: 'idling',
        ports: ['phy:0', 'ring:1'],
        patches: [{ src: 'phy:0', dst: 'ring:1' }],
      },
    },
    nfvs: { '1': { status: 'Idle', patches: [{ src: 'ring:1', dst: 'phy:1' }] } },
  })
  assert.equal(
    movers.map((m) => [m.process, m.name, m.running]),
    [
      ['primary', 'phy:0>ring:1', false],
      ['nfv:1', 'ring:1>phy:1', false],
    ],
  )
  const running = moversOf({
    nfvs: { '1': { status: 'running', patches: [{ src: 'a:1', dst: 'b:2' }] } },
  })
  assert.ok(running[0]!.running, 'the wire word running (--nfv-status wire) runs too')
})

test('a classifier carries the entries of its own tx ports; a mirror copies; unreadable is skipped', () => {
  const movers = moversOf({
    vfs: {
      '2': {
        components: [
          {
            name: 'cls',
            type: 'classifier_mac',
            rx_port: [use('phy:0')],
            tx_port: [use('ring:1'), use('ring:2')],
          },
          {
            name: 'mg',
            type: 'merge',
            rx_port: [use('ring:1'), use('ring:2')],
            tx_port: [use('phy:1')],
          },
        ],
        classifier_table: [
          { type: 'mac', value: 'FA:16:3E:00:00:01', port: 'ring:1' },
          { type: 'mac', value: 'FA:16:3E:00:00:09', port: 'ring:3' },
        ],
      },
      '4': { error: 'no reply within 5000 ms' },
    },
    mirrors: {
      '3': {
        components: [
          {
            name: 'mr1',
            type: 'mirror',
            rx_port: [use('ring:1')],
            tx_port: [use('ring:2'), use('ring:3')],
          },
        ],
      },
    },
  })
  assert.equal(
    movers.map((m) => [m.process, m.name, m.kind]),
    [
      ['vf:2', 'cls', 'classifier'],
      ['vf:2', 'mg', 'merge'],
      ['mirror:3', 'mr1', 'mirror'],
    ],
  )
  assert.equal(movers[0]!.table, [{ type: 'mac', value: 'FA:16:3E:00:00:01', port: 'ring:1' }])
  assert.is(movers[1]!.table, undefined)
  assert.equal(
    readersOf(movers, 'ring:1').map((m) => m.name),
    ['mg', 'mr1'],
  )
  assert.equal(
    writersOf(movers, 'ring:2').map((m) => m.name),
    ['cls', 'mr1'],
  )
})

test('a 2020 classifier word, a pcap capture, and queues read as their device', () => {
  const movers = moversOf({
    nfvs: { '1': { status: 'Running', patches: [{ src: 'phy:0 nq 1', dst: 'ring:0' }] } },
    vfs: {
      '2': {
        components: [{ name: 'c', type: 'classifier', rx_port: [use('ring:0')], tx_port: [] }],
      },
    },
    pcaps: {
      '5': {
        status: 'running',
        core: [
          { role: 'receive', rx_port: [{ port: 'phy:1' }] },
          { role: 'write', filename: 'x' },
        ],
      },
    },
  })
  assert.equal(
    movers.map((m) => [m.process, m.kind, m.running]),
    [
      ['nfv:1', 'patch', true],
      ['vf:2', 'classifier', true],
      ['pcap:5', 'capture', true],
    ],
  )
  assert.equal(movers[2]!.reads, ['phy:1'])
  assert.equal(movers[2]!.writes, [])
  assert.is(deviceOf('phy:0 nq 1'), 'phy:0')
  assert.is(deviceOf('phy:0nq1'), 'phy:0')
  assert.is(deviceOf('ring:12'), 'ring:12')
  assert.equal(
    readersOf(movers, 'phy:0').map((m) => m.process),
    ['nfv:1'],
  )
})

test.run()
