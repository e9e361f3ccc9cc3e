// Issue 21's targets (and issue 10's earlier ones), each with this run's figure and its ratio to
// the target: below 1 is better for a ceiling, above 1 for a floor.
import type { HttpResults, Row } from './report.ts'

/** One target and this run's figure for it. */
export type Target = {
  target: string
  measured: string
  /** The measured value over the target's limit. */
  ratio: number
  met: boolean
}

const times = (a: number, b: number) => (b > 0 ? a / b : a > 0 ? Infinity : 1)
const ceiling = (target: string, measured: string, value: number, limit: number): Target => ({
  target,
  measured,
  ratio: value / limit,
  met: value <= limit,
})
const floor = (target: string, measured: string, value: number, limit: number): Target => ({
  target,
  measured,
  ratio: value / limit,
  met: value >= limit,
})

/** The row of one case at one number of connections. */
export const rowOf = (r: HttpResults, endpoint: string, connections: number): Row | undefined =>
  r.rows.find((e) => e.endpoint === endpoint && e.connections === connections)

/** Issue 21's targets that this run measured. */
export function targets(r: HttpResults): Target[] {
  const list: Target[] = []
  const cpuVsHono = (endpoint: string, max: number) => {
    const e = rowOf(r, endpoint, 64)
    if (!e) return
    const x = times(e.controller.cpuUs!, e.hono.cpuUs!)
    const measured = `${e.controller.cpuUs} µs vs ${e.hono.cpuUs} µs: ${x.toFixed(2)}×`
    list.push(ceiling(`${endpoint} x64: CPU per request ≤ ${max}× hono's`, measured, x, max))
  }
  cpuVsHono('GET /v1/processes', 1.3)
  cpuVsHono('GET /v1/nfvs/1', 2)
  cpuVsHono('GET /v1/vfs/2', 2)
  for (const endpoint of ['GET /v1/nfvs/1', 'PUT /v1/nfvs/1/patches']) {
    const e = rowOf(r, endpoint, 1)
    if (!e) continue
    const command = e.controller.cpuUs! - e.hono.cpuUs!
    const measured = `${e.controller.cpuUs} − ${e.hono.cpuUs} (hono's) = ${command} µs`
    list.push(ceiling(`${endpoint} x1: CPU per command ≤ 120 µs`, measured, command, 120))
  }
  const put = rowOf(r, 'PUT /v1/nfvs/1/patches', 64)
  if (put) {
    const pct = (100 * put.controller.rps) / r.raw.rps
    const measured = `${put.controller.rps}/s vs ${r.raw.rps}/s: ${pct.toFixed(0)}%`
    list.push(floor('PUT /v1/nfvs/1/patches x64 ≥ 60% of raw round trips/s', measured, pct, 60))
  }
  const mib = (what: string, value: number, max: number) =>
    list.push(ceiling(`${what} < ${max} MiB`, `${value.toFixed(1)} MiB`, value, max))
  mib('peak RSS over the whole bench, --state-dir none', r.finalPeakRssMiB, 100)
  const on = 'skipped' in r.state ? undefined : r.state.peakRssMiB['state dir on']
  if (on !== undefined) mib('peak RSS over every case, state dir on (the default)', on, 100)
  // With the floor of the stack beside it: a minimal hono app, without and with the store open.
  const idleFloor = r.startup.floor
  const idleMib = (what: string, value: number, floorMiB: number | undefined) =>
    list.push({
      ...ceiling(`${what} < 60 MiB`, `${value.toFixed(1)} MiB`, value, 60),
      ...(floorMiB === undefined
        ? {}
        : { measured: `${value.toFixed(1)} MiB (a minimal hono app: ${floorMiB.toFixed(1)})` }),
    })
  idleMib(
    'idle RSS of the compiled build, --state-dir none',
    r.startup.compiled.idleRssMiB,
    idleFloor?.hono,
  )
  const idle = r.startup.stateDir?.idleRssMiB
  if (idle !== undefined)
    idleMib(
      'idle RSS of the compiled build, state dir on (the default)',
      idle,
      idleFloor?.withStore,
    )
  return list
}

/** Issue 10's targets, kept for comparison with its runs. */
export function earlierTargets(r: HttpResults): Target[] {
  const list: Target[] = []
  const throughput = (endpoint: string, min: number, p99Max?: number) => {
    const e = rowOf(r, endpoint, 64)
    if (!e) return
    const pct = (100 * e.controller.rps) / e.hono.rps
    list.push(floor(`${endpoint} x64 ≥ ${min}% of hono req/s`, `${pct.toFixed(0)}%`, pct, min))
    if (p99Max === undefined) return
    const p99 = times(e.controller.p99, e.hono.p99)
    const measured = `${e.controller.p99} ms vs ${e.hono.p99} ms: ${p99.toFixed(2)}×`
    list.push(ceiling(`${endpoint} x64 p99 ≤ ${p99Max}× hono p99`, measured, p99, p99Max))
  }
  throughput('GET /v1/processes', 90)
  throughput('GET /v1/nfvs/1', 75, 1.5)
  throughput('GET /v1/vfs/2', 75, 1.5)
  const first = r.scaling[0]
  const last = r.scaling.at(-1)
  if (first && last && last.processes > first.processes) {
    const rss = `${last.rssMiB.toFixed(1)} MiB`
    list.push(
      ceiling(`RSS with ${last.processes} processes connected < 120 MiB`, rss, last.rssMiB, 120),
    )
    const slower = times(last.one.mean, first.one.mean)
    const measured = `${last.one.mean} ms vs ${first.one.mean} ms: ${slower.toFixed(2)}×`
    const target = `mean latency with ${last.processes} processes ≤ 1.10× with ${first.processes}`
    list.push(ceiling(target, measured, slower, 1.1))
  }
  const s = r.startup.compiled.listeningMs / 1000
  list.push(ceiling('time to "controller listening" < 0.4 s', `${s.toFixed(2)} s`, s, 0.4))
  return list
}

/** Targets as a markdown table. */
export function targetTable(list: Target[]): string {
  return [
    '| target | measured | ratio to target | met |',
    '| --- | --- | --- | --- |',
    ...list.map(
      (t) => `| ${t.target} | ${t.measured} | ${t.ratio.toFixed(2)}× | ${t.met ? 'yes' : 'NO'} |`,
    ),
  ].join('\n')
}
