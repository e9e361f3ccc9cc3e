// The planner for a 2020 primary's forwarder and pipes: steps, order with the secondaries, refusals.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseDesired } from '../../src/topology/document.ts'
import { plan } from '../../src/topology/plan.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'

type Forwarder = { status: string; ports: string[]; patches: { src: string; dst: string }[] }
type Pipe = { id: number; rx: number; tx: number }

const IDLING: Forwarder = { status: 'idling', ports: ['phy:0', 'phy:1'], patches: [] }
const ring = (id: number) => ({ id, rx: 0, rx_drop: 0, tx: 0, tx_drop: 0 })
const phy = (id: number) => ({ id, eth: '', rx: 0, tx: 0, tx_drop: 0, nof_queues: {}, flow: [] })

/**
 * A live document: a primary with phy 0-1 and rings 0-3, its forwarder as given (idling with its
 * two phy ports by default; none: no forwarder thread), `pipes` (absent: SPP 19.08), and nfv 1.
 */
function live({
  forwarder = IDLING,
  pipes = [],
  primary,
}: { forwarder?: Forwarder | null; pipes?: Pipe[] | null; primary?: object } = {}) {
  const status = {
    'master-lcore': 0,
    lcores: forwarder ? [0, 1] : [0],
    ...(forwarder ? { forwarder } : {}),
    phy_ports: [0, 1].map(phy),
    ring_ports: [0, 1, 2, 3].map(ring),
    ...(pipes ? { pipes } : {}),
  }
  const nfv = { 'client-id': 1, status: 'Idle', ports: ['phy:0', 'phy:1'], patches: [] }
  return {
    primary: primary ?? status,
    nfvs: { '1': nfv },
    vfs: {},
    mirrors: {},
  } as unknown as TopologyDocument
}

const steps = (from: TopologyDocument, desired: unknown) => {
  const result = plan(from, parseDesired(desired))
  if (!result.ok) throw new Error(`refused: ${result.refusal.field}: ${result.refusal.reason}`)
  return result.plan.steps.map(
    (s) => `${s.method} ${s.path}${s.body === undefined ? '' : ' ' + JSON.stringify(s.body)}`,
  )
}

const running = (ports: string[], patches: Forwarder['patches']) => ({
  forwarder: { status: 'running', ports, patches },
})
const START = 'PUT /v1/primary/forward {"action":"start"}'
const STOP = 'PUT /v1/primary/forward {"action":"stop"}'

const CASES: [string, TopologyDocument, unknown, string[]][] = [
  ['a primary member asking nothing plans nothing', live(), { primary: { forwarder: {} } }, []],
  ['the live document, posted back, plans nothing', live(), live(), []],
  [
    'a port, a patch and Running: add, patch, then start',
    live(),
    {
      primary: {
        forwarder: {
          status: 'Running',
          ports: ['phy:0', 'phy:1', 'ring:0'],
          patches: [{ src: 'phy:0', dst: 'ring:0' }],
        },
      },
    },
    [
      'PUT /v1/primary/ports {"action":"add","port":"ring:0"}',
      'PUT /v1/primary/patches {"src":"phy:0","dst":"ring:0"}',
      START,
    ],
  ],
  [
    "the primary's own words are taken: running is Running",
    live(),
    { primary: { forwarder: { status: 'running' } } },
    [START],
  ],
  [
    'a port goes while forwarding: stop, reset, delete, the patches left set again, start',
    live({
      forwarder: {
        status: 'running',
        ports: ['phy:0', 'phy:1', 'ring:0', 'vhost:1'],
        patches: [
          { src: 'phy:0', dst: 'ring:0' },
          { src: 'vhost:1', dst: 'phy:1' },
        ],
      },
    }),
    { primary: { forwarder: { ports: ['phy:0', 'phy:1', 'vhost:1'] } } },
    [
      STOP,
      'DELETE /v1/primary/patches',
      'PUT /v1/primary/ports {"action":"del","port":"ring:0"}',
      'PUT /v1/primary/patches {"src":"vhost:1","dst":"phy:1"}',
      START,
    ],
  ],
  [
    'a pipe is added with its rings; a port added while forwarding does not stop it',
    live({ forwarder: running(['phy:0', 'phy:1'], []).forwarder }),
    { primary: { pipes: [{ id: 0, rx: 1, tx: 2 }] } },
    ['PUT /v1/primary/ports {"action":"add","port":"pipe:0","rx":"ring:1","tx":"ring:2"}'],
  ],
  [
    'a pipe over other rings is deleted and added again, and its patch set again',
    live({
      ...running(['phy:0', 'phy:1', 'pipe:0'], [{ src: 'phy:0', dst: 'pipe:0' }]),
      pipes: [{ id: 0, rx: 0, tx: 1 }],
    }),
    { primary: { pipes: [{ id: 0, rx: 2, tx: 3 }] } },
    [
      STOP,
      'DELETE /v1/primary/patches',
      'PUT /v1/primary/ports {"action":"del","port":"pipe:0"}',
      'PUT /v1/primary/ports {"action":"add","port":"pipe:0","rx":"ring:2","tx":"ring:3"}',
      'PUT /v1/primary/patches {"src":"phy:0","dst":"pipe:0"}',
      START,
    ],
  ],
  [
    'a pipe left out of the ports goes with its patches; pipes follow the ports',
    live({
      forwarder: {
        status: 'idling',
        ports: ['phy:0', 'phy:1', 'pipe:0'],
        patches: [{ src: 'phy:0', dst: 'pipe:0' }],
      },
      pipes: [{ id: 0, rx: 0, tx: 1 }],
    }),
    { primary: { forwarder: { ports: ['phy:0', 'phy:1'] } } },
    ['DELETE /v1/primary/patches', 'PUT /v1/primary/ports {"action":"del","port":"pipe:0"}'],
  ],
  [
    'a ring the primary adds comes after the tear-down and before an nfv takes it',
    live({ forwarder: { status: 'idling', ports: ['phy:0', 'phy:1', 'ring:0'], patches: [] } }),
    {
      primary: { forwarder: { ports: ['phy:0', 'phy:1', 'ring:1'] } },
      nfvs: { '1': { ports: ['phy:0', 'phy:1', 'ring:1'] } },
    },
    [
      'PUT /v1/primary/ports {"action":"del","port":"ring:0"}',
      'PUT /v1/primary/ports {"action":"add","port":"ring:1"}',
      'PUT /v1/nfvs/1/ports {"action":"add","port":"ring:1"}',
    ],
  ],
  [
    'an 18.11 primary, or one without a forwarder thread, posted back: nothing',
    live({ forwarder: null, pipes: null }),
    { primary: { pipes: [] } },
    [],
  ],
]

for (const [name, from, desired, expected] of CASES)
  test(name, () => assert.equal(steps(from, desired), expected))

const primaryPorts = (...ports: string[]) => ({ primary: { forwarder: { ports } } })
const REFUSALS: [string, TopologyDocument, unknown, string, RegExp][] = [
  [
    'an 18.11 primary asked for a forwarder',
    live({ primary: { phy_ports: [phy(0)], ring_ports: [ring(0)] } }),
    { primary: { forwarder: { status: 'Running' } } },
    'primary.forwarder',
    /the primary is SPP 18\.11: it has no forwarder/,
  ],
  [
    'a 2020 primary without its forwarder thread asked for a pipe',
    live({ forwarder: null }),
    { primary: { pipes: [{ id: 0, rx: 0, tx: 1 }] } },
    'primary.pipes',
    /shows no forwarder: its thread does not run/,
  ],
  [
    'no primary connected',
    live({ primary: {} }),
    { primary: { forwarder: { status: 'Idle' } } },
    'primary',
    /no primary is connected/,
  ],
  [
    'a pipe on a 19.08 primary',
    live({ pipes: null }),
    { primary: { pipes: [{ id: 0, rx: 0, tx: 1 }] } },
    'primary.pipes[0]',
    /pipe ports need SPP 19\.11: the primary is SPP 19\.08/,
  ],
  [
    'a memif port on a 19.08 primary',
    live({ pipes: null }),
    primaryPorts('phy:0', 'phy:1', 'memif:0'),
    'primary.forwarder.ports[2]',
    /memif ports need SPP 19\.11/,
  ],
  [
    'a physical port it does not have',
    live(),
    primaryPorts('phy:0', 'phy:2'),
    'primary.forwarder.ports[1]',
    /the primary has no phy:2: physical ports cannot be added/,
  ],
  [
    'a ring it did not create',
    live(),
    primaryPorts('ring:9'),
    'primary.forwarder.ports[0]',
    /the primary has no ring:9/,
  ],
  [
    'a pipe over a ring it did not create',
    live(),
    { primary: { pipes: [{ id: 0, rx: 0, tx: 9 }] } },
    'primary.pipes[0].tx',
    /^the primary has no ring:9: its rings are ring:0 to ring:3; pipe:0 cannot be added over it$/,
  ],
  [
    'a pipe port without its rings',
    live(),
    primaryPorts('phy:0', 'pipe:0'),
    'primary.forwarder.ports[1]',
    /pipe:0 is not in primary\.pipes/,
  ],
  [
    'a pipe kept in the pipes and left out of the ports',
    live({
      forwarder: { status: 'idling', ports: ['phy:0', 'pipe:0'], patches: [] },
      pipes: [{ id: 0, rx: 0, tx: 1 }],
    }),
    { primary: { forwarder: { ports: ['phy:0'] }, pipes: [{ id: 0, rx: 0, tx: 1 }] } },
    'primary.pipes[0]',
    /pipe:0 is not in primary\.forwarder\.ports/,
  ],
  [
    'a pipe listed twice',
    live(),
    {
      primary: {
        pipes: [
          { id: 0, rx: 0, tx: 1 },
          { id: 0, rx: 2, tx: 3 },
        ],
      },
    },
    'primary.pipes[1].id',
    /listed twice/,
  ],
  [
    'a patch to a port it will not have',
    live(),
    { primary: { forwarder: { patches: [{ src: 'phy:0', dst: 'ring:0' }] } } },
    'primary.forwarder.patches[0].dst',
    /ring:0 will not be a port of the primary/,
  ],
]

for (const [name, from, desired, field, reason] of REFUSALS)
  test(`refused: ${name}`, () => {
    const result = plan(from, parseDesired(desired))
    assert.is(result.ok, false)
    if (result.ok) return
    assert.is(result.refusal.field, field)
    assert.match(result.refusal.reason, reason)
  })

const INVALID: [string, unknown, RegExp][] = [
  [
    'a queue, which its status never shows',
    { primary: { forwarder: { patches: [{ src: 'phy:0nq1', dst: 'ring:0' }] } } },
    /invalid key\(primary\.forwarder\.patches\[0\]\.src\)/,
  ],
  [
    'a status word of neither vocabulary',
    { primary: { forwarder: { status: 'forwarding' } } },
    /invalid key\(primary\.forwarder\.status\).*Running or Idle/,
  ],
  [
    'a member the primary has no such thing as',
    { primary: { patches: [] } },
    /unknown key\(primary\.patches\)/,
  ],
]
for (const [name, desired, message] of INVALID)
  test(`a bad primary member names its field: ${name}`, () =>
    assert.throws(() => parseDesired(desired), message))

test.run()
