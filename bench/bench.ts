// What this controller costs the host, as installed (bin/spp-ctl.js, compiled), against the
// stack's minimal hono app and, given its source, SPP's own controller, in the same run; CPU from
// /proc. Not part of `npm test`. Usage:
//   npm run bench -- [--case http|apply|dashboards ...] [--seconds 5] [--spp-dir DIR]
//                    [--generator wrk|autocannon] [--cpu-prof]
//                    [--rest-seconds 30] [--settle-seconds 60] [--warm-up 20]
//                    [--processes N ...] [--dashboards N ...] [--way spp|topology|etag|rates ...]
//                    [--spp-ctl-arg=--FLAG ...] [--request 'PUT /v1/nfvs/1/patches' ...]
//                    [--connections 1|64 ...]
// `http` and `apply` (the default) give the speed budget as a table; `dashboards` the matrix of
// issue 35 (dashboards polling once a second). --seconds: each figure's window (default 5).
// --warm-up: for `http`, each server answers its requests back to back this long (at 64
// connections) before the first figure; for `dashboards`, see below.
// For `dashboards`: the rest cell's window (--rest-seconds), begun --settle-seconds after the
// processes registered; --warm-up seconds of polls back to back before the polling cells;
// --processes, --dashboards and --way keep only those cells of its matrix (e.g. to profile one);
// --spp-ctl-arg gives this controller a flag (e.g. --spp-ctl-arg=--status-max-age=0).
// --request and --connections keep only those figures of `http` (and not its runs with more
// processes), e.g. to compare builds on one request.
// --spp-dir: a checkout of SPP 18.11, whose src/spp-ctl/spp-ctl runs beside this controller.
// --cpu-prof: each controller of the run writes a .cpuprofile into bench-results/ as it stops.
// Writes bench-results/bench-*.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { applyCase } from './lib/apply-case.ts'
import { budget, budgetTable } from './lib/budget.ts'
import { CONNECTIONS, ENDPOINTS, type Endpoint } from './lib/cases.ts'
import { dashboardsCase, WAYS, type Way } from './lib/dashboards.ts'
import { httpCase } from './lib/http-case.ts'
import { chooseGenerator } from './lib/load.ts'
import { applyLine, dashboardsTable, httpTables, warmUpLine } from './lib/report.ts'
import { sppScript } from './lib/spp-controller.ts'

const { values } = parseArgs({
  options: {
    case: { type: 'string', multiple: true },
    seconds: { type: 'string', default: '5' },
    'spp-dir': { type: 'string' },
    generator: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    'rest-seconds': { type: 'string', default: '30' },
    'settle-seconds': { type: 'string', default: '60' },
    'warm-up': { type: 'string', default: '20' },
    processes: { type: 'string', multiple: true },
    dashboards: { type: 'string', multiple: true },
    way: { type: 'string', multiple: true },
    'spp-ctl-arg': { type: 'string', multiple: true },
    request: { type: 'string', multiple: true },
    connections: { type: 'string', multiple: true },
  },
})
const cases = new Set(values.case ?? ['http', 'apply'])
const unknown = [...cases].filter((c) => !['http', 'apply', 'dashboards'].includes(c))
if (unknown.length > 0) throw new Error(`unknown case: ${unknown.join(', ')}`)
const seconds = Number(values.seconds)
if (!(seconds > 0)) throw new Error(`--seconds ${values.seconds}: a number of seconds above 0`)
const sppDir = values['spp-dir']
if (sppDir) sppScript(sppDir) // a wrong directory stops the run before anything starts
const out = new URL('../bench-results/', import.meta.url).pathname
mkdirSync(out, { recursive: true })
const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${out}`] : []
const log = (line: string) => process.stderr.write(`${line}\n`)
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

const generator = chooseGenerator(values.generator)
const date = new Date().toISOString()
const machine = `${availableParallelism()} × ${cpus()[0]?.model ?? '?'}, node ${process.version}`
const results: Record<string, unknown> = { date, machine, generator: generator.name, seconds }
const sections = [
  `${date}: ${machine}; load average before: ${loadavg()}; ${seconds} s per figure` +
    (cases.has('http') ? `, each server first warmed up for ${values['warm-up']} s; ` : '; ') +
    `load by ${generator.name === 'wrk' ? 'wrk (one thread)' : 'autocannon (in the bench process)'}; ` +
    `spp-ctl compiled (bin/spp-ctl.js), default flags (the state directory on, in a temporary ` +
    `directory), logs at info into a pipe; the 18.11 simulator answering at once (but in the apply).`,
]
if (!sppDir)
  log("SPP's controller not run: give --spp-dir DIR (a checkout of SPP 18.11) to run it beside")

const number = (flag: 'rest-seconds' | 'settle-seconds' | 'warm-up') => {
  const value = Number(values[flag])
  if (!(value >= 0)) throw new Error(`--${flag} ${values[flag]}: a number of seconds`)
  return value
}
const warmUpSeconds = number('warm-up')
const endpoints = values.request?.map((request) => {
  if (!(request in ENDPOINTS))
    throw new Error(`--request ${request}: one of ${Object.keys(ENDPOINTS).join(', ')}`)
  return request as Endpoint
})
const connections = values.connections?.map((count) => {
  if (!CONNECTIONS.some((c) => String(c) === count))
    throw new Error(`--connections ${count}: one of ${CONNECTIONS.join(', ')}`)
  return Number(count)
})
const http = cases.has('http')
  ? await httpCase(
      generator,
      { seconds, sppDir, nodeArgs, warmUpSeconds, only: { endpoints, connections } },
      log,
    )
  : undefined
if (http) {
  results.http = http
  sections.push(httpTables(http))
}
const apply = cases.has('apply') ? await applyCase(nodeArgs, log) : undefined
if (apply) {
  results.apply = apply
  sections.push(applyLine(apply))
}
if (http || apply) {
  const rows = budget(http, apply)
  results.budget = rows
  sections.push(`The speed budget:\n\n${budgetTable(rows)}`)
}
if (cases.has('dashboards')) {
  const numbers = (list?: string[]) => list?.map(Number)
  const ways = values.way?.map((way) => {
    if (!WAYS.includes(way as Way)) throw new Error(`--way ${way}: one of ${WAYS.join(', ')}`)
    return way as Way
  })
  const restSeconds = number('rest-seconds')
  const { cells, warmUps } = await dashboardsCase(
    {
      ...{ seconds, sppDir, nodeArgs, ways, restSeconds },
      controllerArgs: values['spp-ctl-arg'],
      settleSeconds: number('settle-seconds'),
      warmUpSeconds,
      processes: numbers(values.processes),
      dashboards: numbers(values.dashboards),
    },
    log,
  )
  results.dashboards = cells
  results.warmUps = warmUps
  sections.push(
    `Dashboards polling once a second (issue 35), ${seconds} s a cell (at rest: ${restSeconds} ` +
      `s, begun ${values['settle-seconds']} s after the processes registered); CPU in % of ` +
      `one core:\n\n${dashboardsTable(cells)}\n\n${warmUpLine(warmUps)}`,
  )
}
const failed = [
  ...(http?.rows.flatMap((r) => Object.values(r.figures)) ?? []),
  ...(http?.scaling.map((s) => s.figures) ?? []),
].filter((f) => f.errors + f.non2xx > 0).length
if (failed > 0) sections.push(`${failed} figures had errors or answers not 2xx: see the JSON.`)
sections.push(`Load average after: ${loadavg()}.`)
process.stdout.write(`${sections.join('\n\n')}\n`)
const file = `${out}bench-${Date.now()}.json`
writeFileSync(file, JSON.stringify(results, null, 2))
process.stdout.write(`\nwritten to ${file}\n`)
