// The chains of the traffic recordings (test/fixtures/real-spp/traffic-*.jsonl), built again step by
// step through the controller over loopback, on simulated processes whose packets move by a clock
// the test advances one second per read, as the recording read each second: in every step every
// counter of the primary behaves as it did on real SPP (grows, stuck, zero). Rates are not
// compared: the recorded phy:0 was a net_null device that received as fast as it was polled.
import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SimEra } from '../../src/sim/model-for.ts'
import { withHarness } from '../helpers/harness.ts'

/** One line of a traffic recording: a request of a step, or one read after it. */
type Line = {
  step: string
  request?: string
  body_sent?: unknown
  read?: number
  path?: string
  status: number
  body: string
}
type Status = {
  phy_ports: { id: number; rx: number; tx: number; tx_drop: number }[]
  ring_ports: { id: number; rx: number; rx_drop: number; tx: number; tx_drop: number }[]
}
/** A step as recorded: its requests, then the primary's status read each second after them. */
type Step = { name: string; requests: Line[]; reads: Status[] }

const RECORDINGS: { file: string; era: SimEra }[] = [
  { file: 'traffic-8e72ea0.jsonl', era: '2020' },
  { file: 'traffic-d5c6c97.jsonl', era: '18.11' },
]

function stepsOf(file: string): Step[] {
  const lines = readFileSync(new URL(`../fixtures/real-spp/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text) as Line)
  const steps: Step[] = []
  for (const line of lines) {
    if (steps.at(-1)?.name !== line.step) steps.push({ name: line.step, requests: [], reads: [] })
    const step = steps.at(-1)!
    if (line.request) step.requests.push(line)
    else if (line.path === '/v1/primary/status') step.reads.push(JSON.parse(line.body) as Status)
  }
  return steps
}

const COUNTERS = ['rx', 'rx_drop', 'tx', 'tx_drop'] as const

/** Every counter the primary reports, by port and name: `phy:0 tx_drop`, `ring:1 rx`. */
function countersOf(status: Status): Map<string, number> {
  const counters = new Map<string, number>()
  const ports = [
    ...status.phy_ports.map((p) => [`phy:${p.id}`, p] as const),
    ...status.ring_ports.map((p) => [`ring:${p.id}`, p] as const),
  ]
  for (const [port, each] of ports)
    for (const name of COUNTERS)
      if (name in each) counters.set(`${port} ${name}`, each[name as keyof typeof each])
  return counters
}

/** How each counter moved over a step's reads: zero, stuck (the same, not 0), grows (each read). */
function behaviour(reads: Status[]): Record<string, string> {
  const series = reads.map(countersOf)
  const out: Record<string, string> = {}
  for (const key of series[0]!.keys()) {
    const values = series.map((counters) => counters.get(key)!)
    out[key] = values.every((v) => v === 0)
      ? 'zero'
      : values.every((v) => v === values[0])
        ? 'stuck'
        : values.every((v, i) => i === 0 || v > values[i - 1]!)
          ? 'grows'
          : `irregular ${values.join(' ')}`
  }
  return out
}

/**
 * The recording's chain on the simulator: primary on one lcore (no forwarder), nfv 1, vf 2 with
 * workers 2 and 3, 4 rings. phy:0 receives a million packets a second, and vf 2 moves at most
 * 20000 a second: as on the recorded host, the vf reads ring:0 slower than the nfv fills it.
 */
async function play(era: SimEra, steps: Step[]): Promise<Step[]> {
  let now = 0
  const traffic = {
    sources: { 'phy:0': 1_000_000 },
    readerPps: { 'vf:2': 20_000 },
    clock: () => now,
  }
  const played: Step[] = []
  await withHarness(
    [
      { kind: 'primary', lcores: [0] },
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2, lcores: [1, 2, 3] },
    ],
    async (h) => {
      for (const step of steps) {
        for (const line of step.requests) {
          const [method = '', path = ''] = line.request!.split(' ')
          const answer = await h.api(method, path, line.body_sent ?? undefined)
          assert.is(answer.status, line.status, `${step.name}: ${line.request}: ${answer.text}`)
        }
        const reads: Status[] = []
        for (const _ of step.reads) {
          now += 1000
          reads.push((await h.api('GET', '/v1/primary/status')).json() as Status)
        }
        played.push({ ...step, reads })
      }
    },
    { statusMaxAgeMs: 0, sim: { era, rings: 4, pollMs: 0, traffic } },
  )
  return played
}

for (const { file, era } of RECORDINGS) {
  test(`${file} (SPP ${era}): every counter behaves in each step as it did on real SPP`, async () => {
    const recorded = stepsOf(file)
    const played = await play(era, recorded)
    const table = (steps: Step[]) =>
      Object.fromEntries(steps.map((step) => [step.name, behaviour(step.reads)]))
    assert.equal(table(played), table(recorded))
  })

  test(`${file} (SPP ${era}): a ring nobody reads takes 127 packets; ${era === '18.11' ? "phy:0's tx_drop is ring:0's" : "phy:0's tx_drop stays its own (0)"}`, async () => {
    const recorded = stepsOf(file)
    const played = await play(era, recorded)
    for (const [who, steps] of [
      ['recorded', recorded],
      ['simulated', played],
    ] as const) {
      const unread = steps[1]!
      assert.equal(
        unread.reads.map((status) => status.ring_ports[0]!.tx),
        [127, 127, 127],
        `${who}: ${unread.name}`,
      )
      for (const step of steps)
        for (const { phy_ports, ring_ports } of step.reads) {
          const { rx, tx_drop } = phy_ports[0]!
          // 18.11: what phy:0's reader took and ring:0 did not, in the same read.
          const expected = era === '18.11' ? rx - ring_ports[0]!.tx : 0
          assert.is(tx_drop, expected, `${who}: ${step.name}`)
        }
    }
  })
}

test('the recordings hold what the tests rely on: six steps, three reads each, counters that move', () => {
  for (const { file } of RECORDINGS) {
    const steps = stepsOf(file)
    assert.is(steps.length, 6, file)
    assert.ok(
      steps.every((step) => step.reads.length === 3),
      file,
    )
    const seen = new Set(steps.flatMap((step) => Object.values(behaviour(step.reads))))
    assert.equal([...seen].sort(), ['grows', 'stuck', 'zero'], file)
  }
})

test("with vf 2 reading its socket once a second, as SPP 18.11's does, packets move between its reads", () => {
  let now = 0
  const traffic = { sources: { 'phy:0': 10_000 }, readerPps: { 'vf:2': 4000 }, clock: () => now }
  return withHarness(
    [{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }, { kind: 'vf', clientId: 2 }],
    async (h) => {
      for (const [method, path, body] of [
        ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
        ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
        ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
        ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
        ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
        ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
      ] as const)
        assert.is((await h.api(method, path, body)).status, 204, path)
      const vf = h.sim('vf 2')
      const heard = vf.received.length
      const ring0 = async () => {
        const status = (await h.api('GET', '/v1/primary/status')).json() as Status
        return status.ring_ports[0]!
      }
      now += 1000 // ring:0 fills: the vf takes 4000 of the 10000 a second
      const before = await ring0()
      const seen = []
      for (let second = 0; second < 3; second++) {
        now += 1000
        seen.push(await ring0())
      }
      assert.equal(
        seen.map((ring, i) => [ring.tx - before.tx, ring.tx_drop - before.tx_drop, i]),
        [
          [4000, 6000, 0],
          [8000, 12000, 1],
          [12000, 18000, 2],
        ],
      )
      assert.is(vf.received.length, heard, 'nothing was asked of the vf meanwhile')
    },
    { statusMaxAgeMs: 0, sim: { pollMs: 1000, traffic } },
  )
})

test.run()
