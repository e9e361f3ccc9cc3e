// Live and desired vf state in one shape: components without unuse entries, vlans, classifier entries.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { componentsOf, entryOf, UNTAGGED, useText } from '../../src/topology/normalize.ts'

test('components: named ones only, ports per direction with their vlan; none is no vlan', () => {
  assert.equal(
    componentsOf([
      { core: 3, type: 'unuse' },
      {
        core: 2,
        name: 'fw1',
        type: 'forward',
        rx_port: [{ port: 'ring:0', vlan: { operation: 'none', id: 0, pcp: 0 } }],
        tx_port: [
          { port: 'ring:1', vlan: { operation: 'add', id: 100, pcp: 3 } },
          { port: 'phy:0', vlan: { operation: 'del', id: 0, pcp: 0 } },
        ],
      },
      { core: 4, name: 'mr1', type: 'mirror' },
    ]),
    [
      {
        name: 'fw1',
        core: 2,
        type: 'forward',
        rx: [{ port: 'ring:0', vlan: undefined }],
        tx: [
          { port: 'ring:1', vlan: { operation: 'add', id: 100, pcp: 3 } },
          { port: 'phy:0', vlan: { operation: 'del' } },
        ],
      },
      { name: 'mr1', core: 4, type: 'mirror', rx: [], tx: [] },
    ],
  )
})

test('a port use as a user reads it', () => {
  assert.is(useText({ port: 'ring:0' }), 'ring:0')
  assert.is(useText({ port: 'ring:0', vlan: { operation: 'del' } }), 'ring:0 (del vlan)')
  assert.is(
    useText({ port: 'ring:0', vlan: { operation: 'add', id: 100, pcp: 3 } }),
    'ring:0 (add vlan 100 pcp 3)',
  )
})

test('classifier entries: vid 4095 for mac, vid/mac split for vlan, mac in upper case but default', () => {
  const CASES: [{ type: string; value: string; port: string }, unknown][] = [
    [
      { type: 'mac', value: 'fa:16:3e:7d:cc:35', port: 'ring:0' },
      { port: 'ring:0', vid: UNTAGGED, mac: 'FA:16:3E:7D:CC:35' },
    ],
    [
      { type: 'vlan', value: '100/fa:16:3e:7d:cc:35', port: 'ring:1' },
      { port: 'ring:1', vid: 100, mac: 'FA:16:3E:7D:CC:35' },
    ],
    [
      { type: 'mac', value: 'default', port: 'phy:0' },
      { port: 'phy:0', vid: UNTAGGED, mac: 'default' },
    ],
  ]
  for (const [input, expected] of CASES) assert.equal(entryOf(input), expected)
})

test.run()
