// The benchmark's tables: each case at 1 and 64 connections for the controller and its baselines,
// with req/s, latency and the CPU each request cost the server, then the targets.
import type { Figures } from './load.ts'
import type { Measured } from './measure.ts'
import type { IdleFloor } from './idle-floor.ts'
import type { Startup } from './startup.ts'
import { earlierTargets, rowOf, targets, targetTable } from './targets.ts'
import { variantTable, type VariantRow } from './variants.ts'

/** One case at one number of connections, on each server. */
export type Row = {
  endpoint: string
  connections: number
  controller: Measured
  hono: Measured
  bare: Measured
}
/** Everything the HTTP part of a run measured. */
export type HttpResults = {
  /** Start-up with --state-dir none (`compiled`), with the state directory on, and through tsx. */
  startup: { compiled: Startup; stateDir?: Startup; tsx?: Startup; floor?: IdleFloor }
  rows: Row[]
  raw: Figures
  /** Peak RSS of the controller after the cases above, and after the whole bench. */
  peakRssMiB: number
  scaling: { processes: number; one: Figures; all: Figures; rssMiB: number }[]
  finalPeakRssMiB: number
  /** Every case with the state directory on and with `--state-dir none`, and each one's peak RSS. */
  state: { rows: VariantRow[]; peakRssMiB: Record<string, number> } | { skipped: string }
}

const pct = (a: number, b: number) => (b > 0 ? `${Math.round((100 * a) / b)}%` : '-')
const x = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}×` : '-'

const table = (rows: Row[], connections: number) => [
  `| case x${connections} | spp-ctl req/s | p50 ms | p99 ms | CPU µs/req | core % | hono req/s | p99 ms | CPU µs/req | node:http req/s | p99 ms | CPU µs/req | CPU vs hono | CPU vs node:http |`,
  `|${' --- |'.repeat(14)}`,
  ...rows
    .filter((r) => r.connections === connections)
    .map(
      ({ endpoint, controller: c, hono: h, bare: b }) =>
        `| ${endpoint} | ${c.rps} | ${c.p50} | ${c.p99} | ${c.cpuUs} | ${c.cpu}% | ${h.rps} | ${h.p99} | ${h.cpuUs} | ${b.rps} | ${b.p99} | ${b.cpuUs} | ${x(c.cpuUs, h.cpuUs)} | ${x(c.cpuUs, b.cpuUs)} |`,
    ),
]

/** The markdown of the HTTP part. */
export function httpReport(r: HttpResults): string {
  const { compiled, stateDir, tsx, floor } = r.startup
  const put = rowOf(r, 'PUT /v1/nfvs/1/patches', 64)
  const perCommand = ['GET /v1/nfvs/1', 'PUT /v1/nfvs/1/patches'].flatMap((endpoint) => {
    const e = rowOf(r, endpoint, 1)
    if (!e) return []
    const { controller: c, hono: h, bare: b } = e
    return [
      `| ${endpoint} | ${c.cpuUs} | ${h.cpuUs} | ${b.cpuUs} | ${c.cpuUs! - h.cpuUs!} | ${c.cpuUs! - b.cpuUs!} |`,
    ]
  })
  return [
    ...table(r.rows, 1),
    '',
    ...table(r.rows, 64),
    '',
    "CPU per command at 1 connection: the controller's CPU per request less the HTTP exchange around it (the baselines answer the same bytes with no command):",
    '',
    '| case x1 | spp-ctl µs/req | hono µs/req | node:http µs/req | command over hono µs | over node:http µs |',
    '| --- | --- | --- | --- | --- | --- |',
    ...perCommand,
    '',
    `Raw nfv round trip (a client speaking the wire protocol, no controller): ${r.raw.rps}/s, ` +
      `p50 ${r.raw.p50} ms, p99 ${r.raw.p99} ms` +
      (put ? `; PUT /v1/nfvs/1/patches x64 is ${pct(put.controller.rps, r.raw.rps)} of it.` : '.'),
    `Controller peak RSS after the cases above: ${r.peakRssMiB.toFixed(1)} MiB; over the whole bench ` +
      `(the scaling runs included): ${r.finalPeakRssMiB.toFixed(1)} MiB. ` +
      `Start-up (median of ${compiled.runs}): "controller listening" after ${compiled.listeningMs} ms, ` +
      `idle RSS ${compiled.idleRssMiB.toFixed(1)} MiB after 1 s, ` +
      `${compiled.settledRssMiB.toFixed(1)} MiB after 10 s (V8's memory reducer has run)` +
      (tsx
        ? ` (through tsx, as npm run dev: ${tsx.listeningMs} ms, ${tsx.idleRssMiB.toFixed(1)} MiB).`
        : '.') +
      (stateDir
        ? ` With the state directory on (the default): "controller listening" after ` +
          `${stateDir.listeningMs} ms, idle RSS ${stateDir.idleRssMiB.toFixed(1)} MiB after 1 s, ` +
          `${stateDir.settledRssMiB.toFixed(1)} MiB after 10 s.`
        : '') +
      (floor
        ? ` The floor of idle RSS on this stack (median of ${floor.runs}, after 1 s, started with ` +
          `the same #! line): a minimal hono app on @hono/node-server ${floor.hono.toFixed(1)} ` +
          `MiB; with the project's store open in a state directory ${floor.withStore.toFixed(1)} MiB.`
        : ''),
    '',
    'skipped' in r.state
      ? `The state directory on vs --state-dir none: skipped (${r.state.skipped}).`
      : `The state directory on vs --state-dir none, two more controllers taking turns ` +
        `(each commit's fsync off the event loop):\n\n${variantTable(r.state.rows)}\n\n` +
        `Peak RSS over these cases: ${Object.entries(r.state.peakRssMiB)
          .map(([name, mib]) => `${name} ${mib.toFixed(1)} MiB`)
          .join(', ')}.`,
    '',
    `| processes connected | GET /v1/nfvs/1 x64 req/s | mean ms | p99 ms | all nfvs in turn req/s | p99 ms | RSS MiB |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...r.scaling.map(
      ({ processes, one: o, all: a, rssMiB }) =>
        `| ${processes} | ${o.rps} | ${o.mean} | ${o.p99} | ${a.rps} | ${a.p99} | ${rssMiB.toFixed(1)} |`,
    ),
    '',
    "Issue 21's targets:",
    '',
    targetTable(targets(r)),
    '',
    "Issue 10's targets (req/s and latency against hono), for comparison with its runs:",
    '',
    targetTable(earlierTargets(r)),
  ].join('\n')
}
