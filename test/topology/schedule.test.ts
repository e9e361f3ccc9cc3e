// The order a plan runs in, as input/output tables: a live and a desired document -> each step in
// the order it runs (`N process action what`), with the steps it waits for (`after 1, 3`), and the
// warnings. Nothing is sent into a ring before its readers read it; senders stop before readers go.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { idText } from '../../src/protocol/process-id.ts'
import { parseDesired } from '../../src/topology/document.ts'
import { plan, type Step } from '../../src/topology/plan.ts'
import { desiredOf } from '../../src/topology/process-config.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'
import type { ProcessKey, RememberedConfig } from '../../src/store/store.ts'

const NONE = { operation: 'none', id: 0, pcp: 0 }
const use = (port: string) => ({ port, vlan: NONE })
const comp = (name: string, core: number, type: string, rx: string[] = [], tx: string[] = []) => ({
  core,
  name,
  type,
  rx_port: rx.map(use),
  tx_port: tx.map(use),
})
const unuse = (core: number) => ({ core, type: 'unuse' })
const FREE = [unuse(2), unuse(3), unuse(4), unuse(5)]
const ring = (id: number) => ({ id, rx: 0, rx_drop: 0, tx: 0, tx_drop: 0 })
const phy = (id: number) => ({ id, eth: '', rx: 0, tx: 0, tx_drop: 0, nof_queues: {}, flow: [] })
type Patch = { src: string; dst: string }

/**
 * A live document: an 18.11 primary with rings 0-7 (or a 2020 one with `forwarder` and `pipes`),
 * nfv 1, vf 2 and vf 4 (workers 2-5), mirror 3 (workers 2-3).
 */
function live({
  nfv = {},
  vf = FREE,
  vf4 = FREE,
  classifier = [] as object[],
  mirror = [unuse(2), unuse(3)] as object[],
  forwarder,
  pipes,
}: {
  nfv?: object
  vf?: object[]
  vf4?: object[]
  classifier?: object[]
  mirror?: object[]
  forwarder?: { status: string; ports: string[]; patches: Patch[] }
  pipes?: { id: number; rx: number; tx: number }[]
} = {}) {
  const rings = [0, 1, 2, 3, 4, 5, 6, 7].map(ring)
  const primary = forwarder
    ? {
        'master-lcore': 0,
        lcores: [0, 1],
        forwarder,
        phy_ports: [0, 1].map(phy),
        ring_ports: rings,
        ...(pipes ? { pipes } : {}),
      }
    : { phy_ports: [], ring_ports: rings }
  const vfOf = (id: number, components: object[]) => ({
    'client-id': id,
    ports: ['phy:0', 'phy:1'],
    components,
    classifier_table: id === 2 ? classifier : [],
  })
  return {
    primary,
    nfvs: {
      '1': { 'client-id': 1, status: 'Idle', ports: ['phy:0', 'phy:1'], patches: [], ...nfv },
    },
    vfs: { '2': vfOf(2, vf), '4': vfOf(4, vf4) },
    mirrors: { '3': { 'client-id': 3, ports: ['phy:0'], components: mirror } },
  } as unknown as TopologyDocument
}

/** `3 vf:2 port.attach rx ring:0 fwd1 after 1, 2`: a step as the table shows it. */
function line(step: Step, i: number): string {
  const body = (step.body ?? {}) as Record<string, string>
  const what =
    step.action === 'component.start'
      ? body.name
      : step.action.startsWith('port.attach') || step.action.startsWith('port.detach')
        ? `${body.dir} ${body.port} ${step.component}`
        : step.action === 'patch.set'
          ? `${body.src}>${body.dst}`
          : step.action.startsWith('port.') || step.action.startsWith('classifier.')
            ? body.port
            : step.action === 'component.stop'
              ? step.component
              : undefined
  const after = step.after ? ` after ${step.after.steps.join(', ')}` : ''
  return [i + 1, idText(step.process), step.action, what].filter(Boolean).join(' ') + after
}

function scheduled(from: TopologyDocument, desired: unknown) {
  const result = plan(from, parseDesired(desired))
  if (!result.ok) throw new Error(`refused: ${result.refusal.field}: ${result.refusal.reason}`)
  return { lines: result.plan.steps.map(line), plan: result.plan }
}

// The chain of issue 42: the nfv sends phy:0 into ring:0, vf 2's fwd1 reads it and sends to phy:1.
const CHAIN = {
  nfvs: {
    '1': {
      status: 'Running',
      ports: ['phy:0', 'phy:1', 'ring:0'],
      patches: [{ src: 'phy:0', dst: 'ring:0' }],
    },
  },
  vfs: { '2': { components: [comp('fwd1', 2, 'forward', ['ring:0'], ['phy:1'])] } },
}
const CHAIN_LIVE = live({
  nfv: {
    status: 'Running',
    ports: ['phy:0', 'phy:1', 'ring:0'],
    patches: [{ src: 'phy:0', dst: 'ring:0' }],
  },
  vf: [comp('fwd1', 2, 'forward', ['ring:0'], ['phy:1']), unuse(3), unuse(4), unuse(5)],
})

type Case = [
  name: string,
  from: TopologyDocument,
  desired: unknown,
  lines: string[],
  warnings?: string[],
]
const CASES: Case[] = [
  [
    "the nfv starts forwarding into ring:0 only once vf 2's fwd1 is started and reads it",
    live(),
    CHAIN,
    [
      '1 vf:2 component.start fwd1',
      '2 vf:2 port.attach tx phy:1 fwd1',
      '3 vf:2 port.attach rx ring:0 fwd1',
      '4 nfv:1 port.add ring:0',
      '5 nfv:1 patch.set phy:0>ring:0',
      '6 nfv:1 forward.start after 1, 3',
    ],
  ],
  [
    'tearing the chain down: the nfv stops sending into ring:0 before fwd1 stops reading it',
    CHAIN_LIVE,
    {
      nfvs: { '1': { status: 'Idle', ports: ['phy:0', 'phy:1'], patches: [] } },
      vfs: { '2': { components: [] } },
    },
    [
      '1 nfv:1 forward.stop',
      '2 vf:2 port.detach rx ring:0 fwd1 after 1',
      '3 vf:2 port.detach tx phy:1 fwd1',
      '4 vf:2 component.stop fwd1',
      '5 nfv:1 patches.reset',
      '6 nfv:1 port.del ring:0',
    ],
  ],
  [
    'a chain through two vfs is built from its end: one vf attaches fwd2 before fwd1 (no deadlock)',
    live(),
    {
      vfs: {
        '2': {
          components: [
            comp('fwd1', 2, 'forward', ['ring:0'], ['ring:1']),
            comp('fwd2', 3, 'forward', ['ring:2'], ['phy:1']),
          ],
        },
        '4': { components: [comp('fwdA', 2, 'forward', ['ring:1'], ['ring:2'])] },
      },
    },
    [
      '1 vf:2 component.start fwd1',
      '2 vf:2 component.start fwd2',
      '3 vf:4 component.start fwdA',
      '4 vf:2 port.attach tx phy:1 fwd2',
      '5 vf:2 port.attach rx ring:2 fwd2',
      '6 vf:4 port.attach tx ring:2 fwdA after 2, 5',
      '7 vf:4 port.attach rx ring:1 fwdA',
      '8 vf:2 port.attach tx ring:1 fwd1 after 3, 7',
      '9 vf:2 port.attach rx ring:0 fwd1',
    ],
  ],
  [
    'within one vf too: the component reading a ring is attached before the one sending into it',
    live(),
    {
      vfs: {
        '2': {
          components: [
            comp('fwd1', 2, 'forward', ['phy:0'], ['ring:1']),
            comp('fwd2', 3, 'forward', ['ring:1'], ['phy:1']),
          ],
        },
      },
    },
    [
      '1 vf:2 component.start fwd1',
      '2 vf:2 component.start fwd2',
      '3 vf:2 port.attach tx phy:1 fwd2',
      '4 vf:2 port.attach rx ring:1 fwd2',
      '5 vf:2 port.attach tx ring:1 fwd1 after 2, 4',
      '6 vf:2 port.attach rx phy:0 fwd1',
    ],
  ],
  [
    'tearing down within one vf: the sender into ring:1 is detached before its reader',
    live({
      vf: [
        comp('fwd1', 2, 'forward', ['phy:0'], ['ring:1']),
        comp('fwd2', 3, 'forward', ['ring:1'], ['phy:1']),
        unuse(4),
        unuse(5),
      ],
    }),
    { vfs: { '2': { components: [] } } },
    [
      '1 vf:2 port.detach rx phy:0 fwd1',
      '2 vf:2 port.detach tx ring:1 fwd1',
      '3 vf:2 component.stop fwd1',
      '4 vf:2 port.detach rx ring:1 fwd2 after 2',
      '5 vf:2 port.detach tx phy:1 fwd2',
      '6 vf:2 component.stop fwd2',
    ],
  ],
  [
    // The bench's apply: nothing any vf sends is read by another, so nothing waits.
    'processes that do not feed each other keep the planned order and wait for nothing',
    live(),
    {
      vfs: Object.fromEntries(
        ['2', '4'].map((id) => [
          id,
          {
            components: [
              comp('fwd1', 2, 'forward', ['ring:0'], ['vhost:0']),
              comp('fwd2', 3, 'forward', ['vhost:1'], ['ring:1']),
            ],
          },
        ]),
      ),
    },
    [
      '1 vf:2 component.start fwd1',
      '2 vf:2 component.start fwd2',
      '3 vf:4 component.start fwd1',
      '4 vf:4 component.start fwd2',
      '5 vf:2 port.attach tx vhost:0 fwd1',
      '6 vf:2 port.attach rx ring:0 fwd1',
      '7 vf:2 port.attach tx ring:1 fwd2',
      '8 vf:2 port.attach rx vhost:1 fwd2',
      '9 vf:4 port.attach tx vhost:0 fwd1',
      '10 vf:4 port.attach rx ring:0 fwd1',
      '11 vf:4 port.attach tx ring:1 fwd2',
      '12 vf:4 port.attach rx vhost:1 fwd2',
    ],
    [
      'ring:1: vf:2 fwd2, vf:4 fwd2 send into it and nothing reads it: what is sent there is dropped',
    ],
  ],
  [
    'a reader already reading needs no wait; one that moves core is waited for again',
    live({ vf: [comp('fwd1', 2, 'forward', ['ring:0'], ['phy:1']), unuse(3), unuse(4), unuse(5)] }),
    {
      nfvs: CHAIN.nfvs,
      vfs: { '2': { components: [comp('fwd1', 3, 'forward', ['ring:0'], ['phy:1'])] } },
    },
    [
      '1 vf:2 port.detach rx ring:0 fwd1',
      '2 vf:2 port.detach tx phy:1 fwd1',
      '3 vf:2 component.stop fwd1',
      '4 vf:2 component.start fwd1',
      '5 vf:2 port.attach tx phy:1 fwd1',
      '6 vf:2 port.attach rx ring:0 fwd1',
      '7 nfv:1 port.add ring:0',
      '8 nfv:1 patch.set phy:0>ring:0',
      '9 nfv:1 forward.start after 4, 6',
    ],
  ],
  [
    'a classifier entry sends into its port: added once the port is read; a mirror reads too',
    live(),
    {
      vfs: {
        '2': {
          components: [comp('cls', 4, 'classifier_mac', ['phy:0'], ['ring:3'])],
          classifier_table: [{ type: 'mac', value: 'FA:16:3E:7D:CC:35', port: 'ring:3' }],
        },
      },
      mirrors: { '3': { components: [comp('mr1', 2, 'mirror', ['ring:3'], ['phy:0'])] } },
    },
    [
      '1 vf:2 component.start cls',
      '2 mirror:3 component.start mr1',
      '3 mirror:3 port.attach tx phy:0 mr1',
      '4 mirror:3 port.attach rx ring:3 mr1',
      '5 vf:2 port.attach tx ring:3 cls after 2, 4',
      '6 vf:2 port.attach rx phy:0 cls',
      '7 vf:2 classifier.add ring:3 after 2, 4',
    ],
  ],
  [
    "a 2020 primary's forwarder starts after the vf reads its ring, and stops with the tear-down",
    live({ forwarder: { status: 'idling', ports: ['phy:0', 'phy:1'], patches: [] } }),
    {
      primary: {
        forwarder: {
          status: 'Running',
          ports: ['phy:0', 'phy:1', 'ring:0'],
          patches: [{ src: 'phy:0', dst: 'ring:0' }],
        },
      },
      vfs: { '2': { components: [comp('fwd1', 2, 'forward', ['ring:0'], ['phy:1'])] } },
    },
    [
      '1 primary port.add ring:0',
      '2 vf:2 component.start fwd1',
      '3 vf:2 port.attach tx phy:1 fwd1',
      '4 vf:2 port.attach rx ring:0 fwd1',
      '5 primary patch.set phy:0>ring:0',
      '6 primary forward.start after 2, 4',
    ],
  ],
  [
    "a 2020 primary's forwarder stops sending before the vf stops reading",
    live({
      forwarder: {
        status: 'running',
        ports: ['phy:0', 'phy:1', 'ring:0'],
        patches: [{ src: 'phy:0', dst: 'ring:0' }],
      },
      vf: [comp('fwd1', 2, 'forward', ['ring:0'], ['phy:1']), unuse(3), unuse(4), unuse(5)],
    }),
    { primary: { forwarder: { status: 'Idle' } }, vfs: { '2': { components: [] } } },
    [
      '1 primary forward.stop',
      '2 vf:2 port.detach rx ring:0 fwd1 after 1',
      '3 vf:2 port.detach tx phy:1 fwd1',
      '4 vf:2 component.stop fwd1',
    ],
  ],
  [
    'a pipe sends into its tx ring: the forwarder waits for that ring’s reader',
    live({ forwarder: { status: 'idling', ports: ['phy:0', 'phy:1'], patches: [] }, pipes: [] }),
    {
      primary: {
        forwarder: {
          status: 'Running',
          ports: ['phy:0', 'phy:1', 'pipe:0'],
          patches: [{ src: 'phy:0', dst: 'pipe:0' }],
        },
        pipes: [{ id: 0, rx: 1, tx: 2 }],
      },
      vfs: { '2': { components: [comp('fwd1', 2, 'forward', ['ring:2'], ['phy:1'])] } },
    },
    [
      '1 primary port.add pipe:0',
      '2 vf:2 component.start fwd1',
      '3 vf:2 port.attach tx phy:1 fwd1',
      '4 vf:2 port.attach rx ring:2 fwd1',
      '5 primary patch.set phy:0>pipe:0',
      '6 primary forward.start after 2, 4',
    ],
  ],
  [
    'a loop through two rings is broken at its lowest step, and said',
    live(),
    {
      nfvs: {
        '1': {
          status: 'Running',
          ports: ['phy:0', 'phy:1', 'ring:0', 'ring:1'],
          patches: [{ src: 'ring:1', dst: 'ring:0' }],
        },
      },
      vfs: { '2': { components: [comp('fwd1', 2, 'forward', ['ring:0'], ['ring:1'])] } },
    },
    [
      '1 vf:2 component.start fwd1',
      '2 nfv:1 port.add ring:0',
      '3 nfv:1 port.add ring:1',
      '4 nfv:1 patch.set ring:1>ring:0',
      '5 vf:2 port.attach tx ring:1 fwd1',
      '6 vf:2 port.attach rx ring:0 fwd1',
      '7 nfv:1 forward.start after 1, 6',
    ],
    [
      'a loop: step 5 (attach ring:1 tx to fwd1) sends into ring:1 before nfv:1 patch ring:1 -> ring:0 (step 7) reads it, which waits for it in turn',
    ],
  ],
]

for (const [name, from, desired, lines, warnings = []] of CASES)
  test(name, () => {
    const { lines: got, plan: planned } = scheduled(from, desired)
    assert.equal(got, lines)
    assert.equal(
      planned.warnings.map((w) => w.why),
      warnings,
    )
  })

test("a step's after says why: the readers it waits for, the senders a reader's stop waits for", () => {
  const built = scheduled(live(), CHAIN).plan.steps.at(-1)!
  assert.equal(built.after, {
    steps: [1, 3],
    why: 'waits for the readers of ring:0 (vf:2 fwd1) to be attached and started',
  })
  const torn = scheduled(CHAIN_LIVE, {
    nfvs: { '1': { status: 'Idle' } },
    vfs: { '2': { components: [] } },
  })
  assert.equal(torn.plan.steps[1]!.after, {
    steps: [1],
    why: 'waits for the senders into ring:0 (nfv:1 patch phy:0 -> ring:0) to stop',
  })
})

test('a document that sends into a ring nothing reads is planned, with a warning naming it', () => {
  const { lines, plan: planned } = scheduled(live(), {
    nfvs: {
      '1': {
        status: 'Running',
        ports: ['phy:0', 'phy:1', 'ring:0'],
        patches: [{ src: 'phy:0', dst: 'ring:0' }],
      },
    },
  })
  assert.equal(lines, [
    '1 nfv:1 port.add ring:0',
    '2 nfv:1 patch.set phy:0>ring:0',
    '3 nfv:1 forward.start',
  ])
  assert.equal(planned.warnings, [
    {
      port: 'ring:0',
      why: 'ring:0: nfv:1 patch phy:0 -> ring:0 sends into it and nothing reads it: what is sent there is dropped',
    },
  ])
  // Taking the reader away warns too; an Idle nfv sends nothing; phy ports leave the host.
  assert.equal(
    scheduled(CHAIN_LIVE, { vfs: { '2': { components: [] } } }).plan.warnings.map((w) => w.port),
    ['ring:0'],
  )
  assert.equal(
    scheduled(CHAIN_LIVE, { nfvs: { '1': { status: 'Idle' } }, vfs: { '2': { components: [] } } })
      .plan.warnings,
    [],
  )
  assert.equal(scheduled(live(), CHAIN).plan.warnings, [])
  // A dead end of a process the document does not name is not this document's to warn about.
  assert.equal(scheduled(CHAIN_LIVE, { vfs: { '4': { components: [] } } }).plan.warnings, [])
})

// Restore plans as apply does: the remembered configuration of the processes restored together
// (desiredOf), against the controller's view of them.
test("a restore of the chain's two processes follows the same order", () => {
  const remembered: [ProcessKey, RememberedConfig][] = [
    [{ section: 'nfvs', clientId: 1 }, CHAIN.nfvs['1']],
    [{ section: 'vfs', clientId: 2 }, CHAIN.vfs['2']],
  ]
  const result = plan(live(), desiredOf(remembered))
  assert.ok(result.ok)
  assert.equal(result.plan.steps.map(line), [
    '1 vf:2 component.start fwd1',
    '2 vf:2 port.attach tx phy:1 fwd1',
    '3 vf:2 port.attach rx ring:0 fwd1',
    '4 nfv:1 port.add ring:0',
    '5 nfv:1 patch.set phy:0>ring:0',
    '6 nfv:1 forward.start after 1, 3',
  ])
})

test.run()
