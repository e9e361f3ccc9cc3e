// The diff `topology plan` prints: a 2020 primary's forwarder and pipes, and an nfv's, by name.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { renderDiff } from '../../../src/cli/topology/diff.ts'
import { parseDesired } from '../../../src/topology/document.ts'
import type { TopologyDocument } from '../../../src/topology/read-topology.ts'

const ring = (id: number) => ({ id, rx: 0, rx_drop: 0, tx: 0, tx_drop: 0 })

/** A 2020 primary forwarding phy:0 to pipe:0 (over rings 0 and 1), and an idle nfv 1. */
const PRIMARY = {
  'master-lcore': 0,
  lcores: [0, 1],
  forwarder: {
    status: 'running',
    ports: ['phy:0', 'phy:1', 'pipe:0', 'udf'],
    patches: [{ src: 'phy:0', dst: 'pipe:0' }],
  },
  phy_ports: [],
  ring_ports: [0, 1, 2, 3].map(ring),
  pipes: [{ id: 0, rx: 0, tx: 1 }],
}
const LIVE = {
  primary: PRIMARY,
  nfvs: { '1': { 'client-id': 1, status: 'Idle', ports: ['phy:0', 'phy:1'], patches: [] } },
  vfs: {},
  mirrors: {},
} as unknown as TopologyDocument

const CASES: [string, unknown, string[]][] = [
  [
    "the primary's status, a port, a patch: under `primary`, in the spec's words",
    {
      primary: {
        forwarder: {
          status: 'Idle',
          ports: ['phy:0', 'phy:1', 'pipe:0', 'ring:2'],
          patches: [
            { src: 'phy:0', dst: 'pipe:0' },
            { src: 'phy:1', dst: 'ring:2' },
          ],
        },
      },
    },
    ['primary', '  ~ status Running -> Idle', '  + port ring:2', '  + patch phy:1 -> ring:2'],
  ],
  [
    'a pipe is named with its rings: one over other rings goes and comes',
    { primary: { pipes: [{ id: 0, rx: 2, tx: 3 }] } },
    ['primary', '  - port pipe:0 (rx ring:0, tx ring:1)', '  + port pipe:0 (rx ring:2, tx ring:3)'],
  ],
  [
    'a pipe that goes takes its patch',
    { primary: { forwarder: { ports: ['phy:0', 'phy:1'] } } },
    ['primary', '  - port pipe:0 (rx ring:0, tx ring:1)', '  - patch phy:0 -> pipe:0'],
  ],
  [
    'the primary and an nfv each under its own name',
    {
      primary: { forwarder: { status: 'idling' } },
      nfvs: { '1': { status: 'Running', ports: ['phy:0', 'phy:1', 'ring:3'] } },
    },
    [
      'primary',
      '  ~ status Running -> Idle',
      'nfv 1',
      '  ~ status Idle -> Running',
      '  + port ring:3',
    ],
  ],
  ['no primary member: no primary section', { nfvs: {} }, []],
]

for (const [name, desired, expected] of CASES)
  test(name, () => assert.equal(renderDiff(LIVE, parseDesired(desired)), expected))

test('a primary without a forwarder, posted back with its pipes, has no section', () => {
  const { forwarder: _, ...noForwarder } = PRIMARY
  const live = { ...LIVE, primary: noForwarder } as unknown as TopologyDocument
  assert.equal(
    renderDiff(live, parseDesired({ primary: { pipes: [{ id: 0, rx: 0, tx: 1 }] } })),
    [],
  )
})

test.run()
