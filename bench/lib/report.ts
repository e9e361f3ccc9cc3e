// The benchmark's tables: every figure with its ratio to each baseline, and each target of
// issue 10 with whether this run met it.
import type { Figures } from './load.ts'
import type { Startup } from './startup.ts'

/** Everything one benchmark run measured (also its JSON file). */
export type Results = {
  date: string
  machine: { nproc: number; cpu: string; node: string }
  seconds: number
  connections: number
  startup: { compiled: Startup; tsx?: Startup }
  endpoints: { endpoint: string; controller: Figures; hono: Figures; bare: Figures }[]
  raw: Figures
  peakRssMiB: number
  scaling: { processes: number; one: Figures; all: Figures; rssMiB: number }[]
  finalPeakRssMiB: number
}
/** One target of issue 10 and this run's figure for it. */
export type Target = { target: string; measured: string; met: boolean }

const pct = (a: number, b: number) => (b > 0 ? Math.round((100 * a) / b) : Infinity)
const times = (a: number, b: number) => (b > 0 ? a / b : a > 0 ? Infinity : 1)

/** Each target, measured. */
export function targets(r: Results): Target[] {
  const row = (endpoint: string) => r.endpoints.find((e) => e.endpoint === endpoint)
  const list: Target[] = []
  const throughput = (endpoint: string, min: number, p99Max?: number) => {
    const e = row(endpoint)
    if (!e) return
    const ratio = pct(e.controller.rps, e.hono.rps)
    list.push({
      target: `${endpoint} ≥ ${min}% of hono req/s`,
      measured: `${ratio}%`,
      met: ratio >= min,
    })
    if (p99Max === undefined) return
    const p99 = times(e.controller.p99, e.hono.p99)
    list.push({
      target: `${endpoint} p99 ≤ ${p99Max}× hono p99`,
      measured: `${e.controller.p99} ms vs ${e.hono.p99} ms: ${p99.toFixed(2)}×`,
      met: p99 <= p99Max,
    })
  }
  throughput('GET /v1/processes', 90)
  throughput('GET /v1/nfvs/1', 75, 1.5)
  throughput('GET /v1/vfs/2', 75, 1.5)
  const put = row('PUT /v1/nfvs/1/patches')
  if (put) {
    const ratio = pct(put.controller.rps, r.raw.rps)
    list.push({
      target: 'PUT /v1/nfvs/1/patches ≥ 50% of raw round trips/s',
      measured: `${ratio}%`,
      met: ratio >= 50,
    })
  }
  const mib = (target: string, value: number, max: number) =>
    list.push({
      target: `${target} < ${max} MiB`,
      measured: `${value.toFixed(1)} MiB`,
      met: value < max,
    })
  mib(`peak RSS under the x${r.connections} endpoint load`, r.peakRssMiB, 100)
  const first = r.scaling[0]
  const last = r.scaling.at(-1)
  if (first && last && last.processes > first.processes) {
    mib(`RSS with ${last.processes} processes connected, after load`, last.rssMiB, 120)
    const slower = times(last.one.mean, first.one.mean)
    list.push({
      target: `mean latency with ${last.processes} processes ≤ 1.10× with ${first.processes}`,
      measured: `${last.one.mean} ms vs ${first.one.mean} ms: ${slower.toFixed(2)}×`,
      met: slower <= 1.1,
    })
  }
  mib('idle RSS of the compiled build', r.startup.compiled.idleRssMiB, 70)
  const ms = r.startup.compiled.listeningMs
  list.push({
    target: 'time to "controller listening" < 0.4 s',
    measured: `${(ms / 1000).toFixed(2)} s`,
    met: ms < 400,
  })
  return list
}

/** The markdown the benchmark prints (and the README's Speed section shows). */
export function report(r: Results): string {
  const { compiled, tsx } = r.startup
  const put = r.endpoints.find((e) => e.endpoint.startsWith('PUT'))
  return [
    `${r.date}: ${r.machine.nproc} × ${r.machine.cpu}, node ${r.machine.node}; ${r.seconds} s per figure, ` +
      `${r.connections} connections, controller compiled (bin/spp-ctl.js), default flags, logs at info`,
    '',
    `| endpoint x${r.connections} | spp-ctl req/s | p50 ms | p99 ms | spp-ctl CPU | hono req/s | p99 ms | vs hono | node:http req/s | p99 ms | vs node:http |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.endpoints.map(
      ({ endpoint, controller: c, hono: h, bare: b }) =>
        `| ${endpoint} | ${c.rps} | ${c.p50} | ${c.p99} | ${c.cpu ?? '-'}% | ${h.rps} | ${h.p99} | ${pct(c.rps, h.rps)}% | ${b.rps} | ${b.p99} | ${pct(c.rps, b.rps)}% |`,
    ),
    '',
    `Raw nfv round trip (a client speaking the wire protocol, no controller): ${r.raw.rps}/s, ` +
      `p50 ${r.raw.p50} ms, p99 ${r.raw.p99} ms` +
      (put ? `; PUT /v1/nfvs/1/patches is ${pct(put.controller.rps, r.raw.rps)}% of it.` : '.'),
    `Controller peak RSS under this load: ${r.peakRssMiB.toFixed(1)} MiB. ` +
      `Start-up (median of ${compiled.runs}): "controller listening" after ${compiled.listeningMs} ms, ` +
      `idle RSS ${compiled.idleRssMiB.toFixed(1)} MiB` +
      (tsx
        ? ` (through tsx, as npm run dev: ${tsx.listeningMs} ms, ${tsx.idleRssMiB.toFixed(1)} MiB).`
        : '.'),
    '',
    `| processes connected | GET /v1/nfvs/1 x${r.connections} req/s | mean ms | p99 ms | all nfvs in turn req/s | p99 ms | RSS MiB |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...r.scaling.map(
      ({ processes, one: o, all: a, rssMiB }) =>
        `| ${processes} | ${o.rps} | ${o.mean} | ${o.p99} | ${a.rps} | ${a.p99} | ${rssMiB.toFixed(1)} |`,
    ),
    '',
    '| target | measured | met |',
    '| --- | --- | --- |',
    ...targets(r).map(
      ({ target, measured, met }) => `| ${target} | ${measured} | ${met ? 'yes' : 'NO'} |`,
    ),
  ].join('\n')
}
