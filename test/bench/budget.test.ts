import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { ApplyResult } from '../../bench/lib/apply-case.ts'
import { budget, budgetTable } from '../../bench/lib/budget.ts'
import type { Figures } from '../../bench/lib/figures.ts'
import type { HttpResults, ServerName } from '../../bench/lib/http-case.ts'

// The speed budget as the bench judges it: a run exactly at every limit meets every target, and
// a run just past one limit fails that target alone.
const fig = (cpuUs: number, rps = 1000): Figures => ({
  rps,
  requests: rps * 5,
  mean: 1,
  p50: 1,
  p99: 2,
  errors: 0,
  non2xx: 0,
  cpuUs,
})
type Limits = {
  processes: number
  nfv64: number
  vf64: number
  nfv1: number
  put1: number
  putRps: number
  peak: number
  idle: number
  listening: number
  applyMs: number
}
const AT_LIMITS: Limits = {
  processes: 36, // hono's 18, twice
  nfv64: 125, // SPP's 500, a quarter
  vf64: 120, // SPP's 480
  nfv1: 240, // SPP's 600, 40%
  put1: 318, // SPP's 530, 0.6 times
  putRps: 2550, // SPP's 1700, 1.5 times
  peak: 125,
  idle: 69.9,
  listening: 499,
  applyMs: 8500,
}
const run = (l: Limits, spp = true): [HttpResults, ApplyResult] => {
  const row = (
    endpoint: string,
    connections: number,
    figures: Partial<Record<ServerName, Figures>>,
  ) => ({
    endpoint: endpoint as HttpResults['rows'][number]['endpoint'],
    connections,
    figures: spp ? figures : { ...figures, SPP: undefined },
  })
  const http: HttpResults = {
    startup: { listeningMs: l.listening, idleRssMiB: l.idle, runs: 5 },
    rows: [
      row('GET /v1/processes', 64, { 'spp-ctl': fig(l.processes), hono: fig(18) }),
      row('GET /v1/nfvs/1', 64, { 'spp-ctl': fig(l.nfv64), SPP: fig(500) }),
      row('GET /v1/vfs/2', 64, { 'spp-ctl': fig(l.vf64), SPP: fig(480) }),
      row('GET /v1/nfvs/1', 1, { 'spp-ctl': fig(l.nfv1), SPP: fig(600) }),
      row('PUT /v1/nfvs/1/patches', 1, {
        'spp-ctl': fig(900),
        'state dir none': fig(l.put1),
        SPP: fig(530),
      }),
      row('PUT /v1/nfvs/1/patches', 64, { 'spp-ctl': fig(200, l.putRps), SPP: fig(600, 1700) }),
    ],
    scaling: [],
    peakRssMiB: l.peak,
  }
  const apply: ApplyResult = {
    processes: 4,
    steps: 24,
    status: 200,
    wallMs: l.applyMs,
    reportedMs: l.applyMs,
    leftOver: 0,
  }
  return [http, apply]
}

test('a run at every limit meets each of the ten targets', () => {
  const rows = budget(...run(AT_LIMITS))
  assert.is(rows.length, 10)
  assert.equal(
    rows.filter((r) => r.met !== true).map((r) => r.target),
    [],
  )
})

test('a run just past one limit fails that target and no other', () => {
  const past: [keyof Limits, number, string][] = [
    ['processes', 37, 'GET /v1/processes x64'],
    ['nfv64', 126, 'GET /v1/nfvs/1 x64'],
    ['vf64', 121, 'GET /v1/vfs/2 x64'],
    ['nfv1', 241, 'GET /v1/nfvs/1 x1'],
    ['put1', 319, 'PUT /v1/nfvs/1/patches x1'],
    ['putRps', 2549, 'PUT /v1/nfvs/1/patches x64'],
    ['peak', 125.1, 'peak RSS'],
    ['idle', 70, 'idle RSS'],
    ['listening', 500, 'start to'],
    ['applyMs', 8501, '24-step apply'],
  ]
  for (const [field, value, target] of past) {
    const failed = budget(...run({ ...AT_LIMITS, [field]: value })).filter((r) => r.met === false)
    assert.equal(
      failed.map((r) => r.target.startsWith(target)),
      [true],
      `${field} ${value}`,
    )
  }
})

test("without SPP's controller its comparisons are not judged, and say why", () => {
  const rows = budget(...run(AT_LIMITS, false))
  const unjudged = rows.filter((r) => r.met === undefined)
  assert.is(unjudged.length, 5)
  for (const r of unjudged) assert.match(r.measured, /--spp-dir/)
  assert.match(budgetTable(rows), /\| - \|$/m)
})

test('an apply that leaves steps undone is not met, however fast', () => {
  const [http, apply] = run(AT_LIMITS)
  const rows = budget(http, { ...apply, wallMs: 1000, leftOver: 2 })
  assert.is(rows.at(-1)!.met, false)
})

test.run()
