// The benchmark's tables in markdown, as docs/speed.md shows them.
import type { ApplyResult } from './apply-case.ts'
import type { DashboardCell, WarmUp } from './dashboards.ts'
import type { Figures } from './figures.ts'
import type { HttpResults } from './http-case.ts'

const dash = '-'
const cpuOf = (f: Figures | undefined) => (f ? String(f.cpuUs) : dash)

/** Each request at 1 and 64 connections on every server, then more processes and memory. */
export function httpTables(r: HttpResults): string {
  return [
    '| case | spp-ctl req/s | p50 ms | p99 ms | CPU µs/req | `--state-dir none` µs/req | hono µs/req | SPP req/s | SPP p99 ms | SPP µs/req |',
    `|${' --- |'.repeat(10)}`,
    ...r.rows.map(({ endpoint, connections, figures: f }) => {
      const c = f['spp-ctl']!
      const s = f.SPP
      return (
        `| ${endpoint} x${connections} | ${c.rps} | ${c.p50} | ${c.p99} | ${c.cpuUs} | ` +
        `${cpuOf(f['state dir none'])} | ${cpuOf(f.hono)} | ${s?.rps ?? dash} | ` +
        `${s?.p99 ?? dash} | ${cpuOf(s)} |`
      )
    }),
    '',
    '| processes connected | every nfv in turn x64 req/s | p99 ms | CPU µs/req | RSS MiB |',
    '| --- | --- | --- | --- | --- |',
    ...r.scaling.map(
      ({ processes, figures: f, rssMiB }) =>
        `| ${processes} | ${f.rps} | ${f.p99} | ${f.cpuUs} | ${rssMiB.toFixed(1)} |`,
    ),
    '',
    `spp-ctl: "controller listening" ${r.startup.listeningMs} ms after the start, idle RSS ` +
      `${r.startup.idleRssMiB.toFixed(1)} MiB 1 s later (medians of ${r.startup.runs} starts); ` +
      `peak RSS over the whole bench ${r.peakRssMiB.toFixed(1)} MiB.` +
      (r.spp
        ? ` SPP's controller: RSS ${r.spp.idleRssMiB.toFixed(1)} MiB with its processes ` +
          `connected, peak ${r.spp.peakRssMiB.toFixed(1)} MiB over the cases.`
        : ''),
  ].join('\n')
}

/** The apply, in one line. */
export function applyLine(a: ApplyResult): string {
  return (
    `Topology apply (18.11 simulator, vfs reading once a second): ${a.steps} steps over ` +
    `${a.processes} vfs answered ${a.status} after ${(a.wallMs / 1000).toFixed(2)} s (the ` +
    `controller's own count: ${a.reportedMs ?? dash} ms); a plan afterwards finds ${a.leftOver} steps.`
  )
}

/** The dashboards' matrix: one row per cell, SPP's controller beside this one where it ran. */
export function dashboardsTable(cells: DashboardCell[]): string {
  const ours = cells.filter((c) => c.controller === 'spp-ctl')
  const on = (controller: DashboardCell['controller']) => (c: DashboardCell) =>
    cells.find(
      (s) =>
        s.controller === controller &&
        s.processes === c.processes &&
        s.dashboards === c.dashboards &&
        s.way === c.way,
    )
  const theirs = on('SPP')
  const hono = on('hono')
  const node = on('node')
  const way = {
    none: 'none',
    spp: "SPP's way",
    topology: '`/v1/topology`',
    etag: '`/v1/topology`, If-None-Match',
    rates: 'following `/v1/events?rates=1`',
  }
  const figures = (c: DashboardCell | undefined) => {
    if (!c) return [dash, dash, dash, dash, dash]
    const polled = c.due > 0
    return [
      `${c.cpu}%`,
      c.cpuUs === undefined ? dash : String(c.cpuUs),
      polled ? `${c.p50} / ${c.p99}` : dash,
      polled ? `${c.polls}/${c.due}${c.errors > 0 ? `, ${c.errors} errors` : ''}` : dash,
      c.rssMiB.toFixed(1),
    ]
  }
  const ratio = (c: DashboardCell) => {
    const s = theirs(c)
    return c.cpuUs !== undefined && s?.cpuUs ? (c.cpuUs / s.cpuUs).toFixed(2) : dash
  }
  return [
    '| processes | dashboards | polling | spp-ctl CPU | µs/req | poll p50 / p99 ms | polls | RSS MiB | hono CPU | µs/req | node:http CPU | µs/req | SPP CPU | µs/req | poll p50 / p99 ms | polls | RSS MiB | µs/req ÷ SPP | bench / sims CPU |',
    `|${' --- |'.repeat(19)}`,
    ...ours.map((c) => {
      const floor = [hono(c), node(c)].flatMap((b) =>
        b ? [`${b.cpu}%`, String(b.cpuUs ?? dash)] : [dash, dash],
      )
      return (
        `| ${c.processes} | ${c.dashboards} | ${way[c.way]} | ` +
        `${[...figures(c), ...floor, ...figures(theirs(c))].join(' | ')} | ${ratio(c)} | ` +
        `${c.benchCpu}% / ${c.simCpu}% |`
      )
    }),
  ].join('\n')
}

/** The warm-ups before the polling cells, in one line. */
export function warmUpLine(warmUps: WarmUp[]): string {
  if (warmUps.length === 0) return 'No warm-up.'
  const each = warmUps.map(
    (w) => `${w.controller} with ${w.processes} processes ${w.polls} polls (${w.cpu}% of a core)`,
  )
  return `Before the polling cells, each controller polled back to back for ${warmUps[0]!.seconds} s: ${each.join('; ')}.`
}
