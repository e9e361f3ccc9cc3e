// The speed budget (issue 30's, as issue 44 restates it: what performance may move within), each
// target with this run's figure:
// a pure function of the results, so a test can hold the limits.
import type { ApplyResult } from './apply-case.ts'
import type { CaseRow, HttpResults, ServerName } from './http-case.ts'

/** One target, what this run measured for it, and whether it was met (undefined: not measured). */
export type BudgetRow = { target: string; measured: string; met: boolean | undefined }

const NO_SPP = "SPP's controller not run (--spp-dir)"
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`

/** The rows of the budget that the run measured: the HTTP part's, then the apply's. */
export function budget(http: HttpResults | undefined, apply: ApplyResult | undefined): BudgetRow[] {
  const rows: BudgetRow[] = []
  if (http) {
    const of = (endpoint: string, connections: number, server: ServerName) =>
      figureOf(http.rows, endpoint, connections, server)
    const cpuAgainst = (
      target: string,
      endpoint: string,
      connections: number,
      ours: ServerName,
      other: ServerName,
      most: number,
    ) => {
      const mine = of(endpoint, connections, ours)?.cpuUs
      const theirs = of(endpoint, connections, other)?.cpuUs
      rows.push(
        mine === undefined || theirs === undefined
          ? { target, measured: other === 'SPP' ? NO_SPP : 'not run', met: undefined }
          : {
              target,
              measured: `${mine} µs vs ${theirs} µs: ${ratio(mine, theirs)}`,
              met: mine <= most * theirs,
            },
      )
    }
    cpuAgainst(
      "GET /v1/processes x64: CPU per request ≤ 2× the minimal hono app's",
      'GET /v1/processes',
      64,
      'spp-ctl',
      'hono',
      2,
    )
    for (const endpoint of ['GET /v1/nfvs/1', 'GET /v1/vfs/2'])
      cpuAgainst(
        `${endpoint} x64: CPU per request ≤ ¼ of SPP's controller's`,
        endpoint,
        64,
        'spp-ctl',
        'SPP',
        0.25,
      )
    cpuAgainst(
      "GET /v1/nfvs/1 x1 (one command alone): CPU ≤ 40% of SPP's controller's",
      'GET /v1/nfvs/1',
      1,
      'spp-ctl',
      'SPP',
      0.4,
    )
    cpuAgainst(
      "PUT /v1/nfvs/1/patches x1, --state-dir none: CPU ≤ 0.6× SPP's controller's",
      'PUT /v1/nfvs/1/patches',
      1,
      'state dir none',
      'SPP',
      0.6,
    )
    const target = "PUT /v1/nfvs/1/patches x64, state directory on: req/s ≥ 1.5× SPP's controller's"
    const mine = of('PUT /v1/nfvs/1/patches', 64, 'spp-ctl')?.rps
    const theirs = of('PUT /v1/nfvs/1/patches', 64, 'SPP')?.rps
    rows.push(
      mine === undefined || theirs === undefined
        ? { target, measured: NO_SPP, met: undefined }
        : {
            target,
            measured: `${mine}/s vs ${theirs}/s: ${ratio(mine, theirs)}`,
            met: mine >= 1.5 * theirs,
          },
    )
    const mib = (target: string, value: number, met: boolean) =>
      rows.push({ target, measured: `${value.toFixed(1)} MiB`, met })
    const peak = http.peakRssMiB
    mib('peak RSS over the whole bench, default flags ≤ 125 MiB', peak, peak <= 125)
    const idle = http.startup.idleRssMiB
    mib('idle RSS 1 s after start, default flags < 70 MiB', idle, idle < 70)
    const ms = http.startup.listeningMs
    rows.push({
      target: 'start to "controller listening" < 500 ms',
      measured: `${ms} ms`,
      met: ms < 500,
    })
  }
  if (apply) {
    const s = apply.wallMs / 1000
    rows.push({
      target: `${apply.steps}-step apply over ${apply.processes} vfs reading once a second ≤ 8.5 s`,
      measured: `${s.toFixed(2)} s, answered ${apply.status}, ${apply.leftOver} steps left`,
      met: s <= 8.5 && apply.status === 200 && apply.leftOver === 0,
    })
  }
  return rows
}

/** The figures of one request at one number of connections on one server, if it ran. */
export const figureOf = (
  rows: CaseRow[],
  endpoint: string,
  connections: number,
  server: ServerName,
) => rows.find((r) => r.endpoint === endpoint && r.connections === connections)?.figures[server]

/** The budget as a markdown table. */
export function budgetTable(rows: BudgetRow[]): string {
  const met = (m: boolean | undefined) => (m === undefined ? '-' : m ? 'yes' : 'NO')
  return [
    '| target | measured | met? |',
    '| --- | --- | --- |',
    ...rows.map((r) => `| ${r.target} | ${r.measured} | ${met(r.met)} |`),
  ].join('\n')
}
