// What watching costs the host (issue 35): dashboards polling a controller once a second, their
// polls spread over the second, each on its own keep-alive connection that idles between polls,
// against the 18.11 simulator's processes answering at once. For 4, 16 and 48 processes and 0, 1,
// 10 and 50 dashboards, three ways of polling: SPP's (`GET /v1/processes`, then each process's own
// GET, one after another), `GET /v1/topology`, and `GET /v1/topology` with If-None-Match of the
// ETag last seen (this controller only). The controller's CPU from /proc over the window, each
// poll's latency (its first request sent to its last answer read), and the controller's RSS at
// the end of the window. SPP's controller polled SPP's way beside it, and the stack's minimal hono
// app (bench/hono-server.ts) and node's bare HTTP server (bench/node-server.ts), each answering the
// bytes this controller answered, polled the same way: what a request costs the stack, and node
// itself, with no work at all, on this machine, under this load.
//
// Each controller is measured at rest first, once the processes have connected and what followed
// has settled (V8 collects garbage for a while after any activity: docs/speed.md), then warmed up
// by polls back to back (V8 compiles what runs often: at a dashboard's pace that takes minutes),
// so that the cells show what a controller running for days costs, not its first minutes.
//
// The processes' machine has packets arriving on phy:0 (20 000 a second) and the chain
// phy:0 -> nfv 1 -> ring:0 -> vf 2 fwd1 -> phy:1 configured on every controller measured, so that
// the counters move as on a host with traffic. A fourth way (this controller only): dashboards
// following `GET /v1/events?rates=1`, each on one stream the controller pushes a `rates` event to
// after each read of the primary (once a second): its "polls" are the events received, its
// p50 / p99 the time between two events of one stream.
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { startControllerProcess, type Controller } from './controller-process.ts'
import { percentiles } from './figures.ts'
import { startHono, startNodeHttp } from './baselines.ts'
import { cpuSeconds, memoryMiB } from './proc.ts'
import { processMix, startRig, type Rig } from './rig.ts'
import { startSppController } from './spp-controller.ts'

/** Processes connected, dashboards polling. */
export const PROCESS_COUNTS = [4, 16, 48] as const
export const DASHBOARD_COUNTS = [0, 1, 10, 50] as const
/**
 * How the dashboards poll: not at all, SPP's way, the topology document, it with its ETag, or
 * they follow the rates pushed on the event stream.
 */
export type Way = 'none' | 'spp' | 'topology' | 'etag' | 'rates'
/** The ways a cell with dashboards polls, and those SPP's controller serves. */
export const WAYS: readonly Way[] = ['spp', 'topology', 'etag', 'rates']
const SPP_WAYS: readonly Way[] = ['spp']
/** The baselines answer no If-None-Match: they are polled the two other ways. */
const BASELINE_WAYS: readonly Way[] = ['spp', 'topology']

/** What a cell polls and measures: a controller with its processes, or a baseline. */
type Watched = Pick<Rig, 'api' | 'simPids'> & { controller: Pick<Controller, 'pid' | 'rssMiB'> }

/** One cell of the matrix on one controller. */
export type DashboardCell = {
  controller: 'spp-ctl' | 'SPP' | 'hono' | 'node'
  processes: number
  dashboards: number
  way: Way
  /** Percent of one core the controller used over the window. */
  cpu: number
  /** Requests answered in polls begun in the window, and the controller's CPU per request. */
  requests: number
  cpuUs?: number
  /** Polls begun in the window, and the polls due (one per dashboard per second). */
  polls: number
  due: number
  /** Poll latency in ms. */
  p50: number
  p99: number
  /** Requests that failed or were not answered 2xx (or 304 to If-None-Match). */
  errors: number
  rssMiB: number
  /** Percent of a core the dashboards (this process) and the simulators used: the harness's load. */
  benchCpu: number
  simCpu: number
}

/** A controller's warm-up: polls back to back, every way it serves, and its CPU meanwhile. */
export type WarmUp = {
  controller: DashboardCell['controller']
  processes: number
  seconds: number
  polls: number
  /** Percent of a core over the warm-up. */
  cpu: number
}

const INTERVAL_MS = 1000
/** Packets a second arriving on phy:0 of the processes' machine. */
const TRAFFIC = ['--traffic', 'phy:0=20000']
/** The chain the traffic flows through, configured through each controller's REST API. */
const CHAIN: [method: string, path: string, body: object][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
]
/** Before a polling cell's window: the dashboards' first polls. */
const FIRST_POLLS_MS = 1000
/** Connections polling back to back in a warm-up. */
const WARM_UP_CONNECTIONS = 4

/**
 * The options of a run: `seconds` is each polling cell's window, `restSeconds` the rest cell's,
 * which begins `settleSeconds` after the processes registered; `warmUpSeconds` of polls back to
 * back before the polling cells. `processes`, `dashboards` and `ways` keep only those cells of the
 * matrix (all of them by default), e.g. to profile one.
 */
export type DashboardOptions = {
  seconds: number
  restSeconds: number
  settleSeconds: number
  warmUpSeconds: number
  sppDir?: string
  nodeArgs: string[]
  /** More flags for this controller (e.g. `--status-max-age 0`). */
  controllerArgs?: readonly string[]
  processes?: readonly number[]
  dashboards?: readonly number[]
  ways?: readonly Way[]
}

/** Runs the matrix, one rig per number of processes (and one of SPP's beside it). */
export async function dashboardsCase(
  options: DashboardOptions,
  log: (line: string) => void,
): Promise<{ cells: DashboardCell[]; warmUps: WarmUp[] }> {
  const { seconds, sppDir, nodeArgs } = options
  const cells: DashboardCell[] = []
  const warmUps: WarmUp[] = []
  const measured = (name: DashboardCell['controller'], processes: number, cell: Cell) => {
    cells.push({ controller: name, processes, ...cell })
    log(
      `${processes} processes, ${cell.dashboards} dashboards ${cell.way}: ${name} ${cell.cpu}% ` +
        `of a core, polls ${cell.polls}/${cell.due}, p50 ${cell.p50} ms, p99 ${cell.p99} ms; ` +
        `bench ${cell.benchCpu}%, sims ${cell.simCpu}%`,
    )
  }
  for (const processes of options.processes ?? PROCESS_COUNTS) {
    const stateDir = mkdtempSync(join(tmpdir(), 'spp-ctl-state-'))
    const stops: (() => Promise<unknown>)[] = []
    try {
      const start = async (controller: Controller) => {
        const rig = await startRig(controller, [...TRAFFIC, ...processMix(processes)], processes, 0)
        stops.push(() => rig.stop())
        await configureChain(rig.api)
        return rig
      }
      const ours = await start(
        await startControllerProcess(
          ['--state-dir', stateDir, ...(options.controllerArgs ?? [])],
          nodeArgs,
          { countLogs: false },
        ),
      )
      const registered = performance.now()
      const spp = sppDir ? await start(await startSppController(sppDir)) : undefined
      const hono = await answering(ours.api, startHono)
      stops.push(hono.stop)
      const node = await answering(ours.api, startNodeHttp)
      stops.push(node.stop)
      const on = (way: Way): (readonly [DashboardCell['controller'], Watched])[] => [
        ['spp-ctl', ours],
        ...(BASELINE_WAYS.includes(way) ? [['hono', hono] as const, ['node', node] as const] : []),
        ...(spp && (way === 'none' || SPP_WAYS.includes(way)) ? [['SPP', spp] as const] : []),
      ]
      const counts = options.dashboards ?? DASHBOARD_COUNTS
      if (counts.includes(0)) {
        const settled = registered + options.settleSeconds * 1000
        // The baselines are not polled at rest: on('none') holds the controllers only.
        for (const [name, rig] of on('none')) {
          const wait = Math.max(0, settled - performance.now())
          measured(name, processes, await watchCell(rig, 0, 'none', options.restSeconds, wait))
        }
      }
      const ways = WAYS.filter((way) => options.ways?.includes(way) ?? true)
      if (counts.some((n) => n > 0) && options.warmUpSeconds > 0)
        for (const [name, rig] of on('spp')) {
          const served = ways.filter(
            (way) => way !== 'rates' && (name === 'spp-ctl' || SPP_WAYS.includes(way)),
          )
          const warm = await warmUp(rig, served, options.warmUpSeconds)
          warmUps.push({ controller: name, processes, ...warm })
          log(`${processes} processes: ${name} warmed up by ${warm.polls} polls, ${warm.cpu}%`)
        }
      for (const dashboards of counts.filter((n) => n > 0))
        for (const way of ways)
          for (const [name, rig] of on(way))
            measured(
              name,
              processes,
              await watchCell(rig, dashboards, way, seconds, FIRST_POLLS_MS),
            )
    } finally {
      for (const stop of stops) await stop()
      rmSync(stateDir, { recursive: true, force: true })
    }
  }
  return { cells, warmUps }
}

type Poll = { begun: number; ms: number; requests: number; errors: number }

/** The chain of the traffic, one request after another; a refusal stops the run. */
async function configureChain(api: string) {
  for (const [method, path, body] of CHAIN) {
    const response = await fetch(api + path, { method, body: JSON.stringify(body) })
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  }
}
type Cell = Omit<DashboardCell, 'controller' | 'processes'>

/** A baseline answering what the controller at `api` answers now, to every poll of every way. */
async function answering(api: string, start: typeof startHono) {
  const responses: Record<string, string> = {}
  const answer = async (path: string) => {
    const body = await (await fetch(api + path)).text()
    responses[`GET ${path}`] = body
    return body
  }
  await answer('/v1/topology')
  const listed = JSON.parse(await answer('/v1/processes')) as Listed[]
  for (const p of listed) await answer(pathOf(p))
  const server = await start(responses)
  return {
    api: server.url,
    simPids: () => [],
    controller: { pid: server.pid, rssMiB: () => memoryMiB(server.pid, 'VmRSS') },
    stop: () => server.stop(),
  }
}

/** One window: `dashboards` polling `way`, `waitMs` after they began (their first polls). */
async function watchCell(
  rig: Watched,
  dashboards: number,
  way: Way,
  seconds: number,
  waitMs: number,
): Promise<Cell> {
  const { pid } = rig.controller
  const t0 = performance.now() + 20
  const from = t0 + waitMs
  const to = from + seconds * 1000
  const polls: Poll[] = []
  const agents = Array.from(
    { length: dashboards },
    () => new Agent({ keepAlive: true, maxSockets: 1 }),
  )
  const running = agents.map((agent, i) => {
    const first = t0 + (i * INTERVAL_MS) / dashboards
    return way === 'rates'
      ? follower(rig.api, agent, first, to, polls)
      : dashboard(rig.api, agent, way, first, to, polls)
  })
  const simSeconds = () => rig.simPids().reduce((sum, sim) => sum + cpuSeconds(sim), 0)
  await delay(Math.max(0, from - performance.now()))
  const cpuBefore = cpuSeconds(pid)
  const benchBefore = process.cpuUsage()
  const simBefore = simSeconds()
  await delay(Math.max(0, to - performance.now()))
  const cpu = cpuSeconds(pid) - cpuBefore
  const { user, system } = process.cpuUsage(benchBefore)
  const sims = simSeconds() - simBefore
  const rssMiB = rig.controller.rssMiB()
  await Promise.all(running)
  for (const agent of agents) agent.destroy()
  const inWindow = polls.filter((p) => p.begun >= from && p.begun < to)
  const requests = inWindow.reduce((sum, p) => sum + p.requests, 0)
  // To 0.1% of a core, or to 0.01% below 1% (the controller at rest is measured against 0.1%).
  const percent = (used: number) => {
    const value = (100 * used) / seconds
    return value < 1 ? Math.round(value * 100) / 100 : Math.round(value * 10) / 10
  }
  return {
    dashboards,
    way,
    cpu: percent(cpu),
    requests,
    ...(requests > 0 ? { cpuUs: Math.round((cpu * 1e6) / requests) } : {}),
    polls: inWindow.length,
    due: dashboards * seconds,
    // A stream's first event has no interval before it.
    ...percentiles(inWindow.filter((p) => way !== 'rates' || p.ms > 0).map((p) => p.ms)),
    errors: inWindow.reduce((sum, p) => sum + p.errors, 0),
    rssMiB,
    benchCpu: percent((user + system) / 1e6),
    simCpu: percent(sims),
  }
}

/**
 * One dashboard: a poll at `first`, then one at each second of the same timeline; a poll that ends
 * late skips the seconds it overran (a dashboard that cannot keep up polls less often, never
 * faster to catch up). No poll begins at or after `until`.
 */
async function dashboard(
  api: string,
  agent: Agent,
  way: Way,
  first: number,
  until: number,
  polls: Poll[],
) {
  let next = first
  const seen = { etag: undefined as string | undefined }
  while (next < until) {
    await delay(Math.max(0, next - performance.now()))
    const begun = performance.now()
    const poll = await pollOnce(api, agent, way, seen)
    polls.push({ begun, ms: performance.now() - begun, ...poll })
    do next += INTERVAL_MS
    while (next < performance.now())
  }
}

/**
 * One dashboard following the rates pushed: a stream of `GET /v1/events?rates=1` opened at
 * `first` and closed at `until`; each `rates` event is a "poll" (begun when it arrived, its ms
 * the time since the stream's event before).
 */
async function follower(api: string, agent: Agent, first: number, until: number, polls: Poll[]) {
  await delay(Math.max(0, first - performance.now()))
  await new Promise<void>((resolve) => {
    const req = get(`${api}/v1/events?rates=1`, { agent }, (res) => {
      if (res.statusCode !== 200) {
        polls.push({ begun: performance.now(), ms: 0, requests: 1, errors: 1 })
        res.resume()
        return resolve()
      }
      let text = ''
      let last: number | undefined
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
        for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
          const block = text.slice(0, end)
          text = text.slice(end + 2)
          if (!/^event: rates$/m.test(block)) continue
          const at = performance.now()
          polls.push({ begun: at, ms: last === undefined ? 0 : at - last, requests: 0, errors: 0 })
          last = at
        }
      })
      res.on('close', () => resolve())
    })
    req.on('error', () => resolve())
    const end = setTimeout(() => req.destroy(), Math.max(0, until - performance.now()))
    req.on('close', () => clearTimeout(end))
  })
}

/** The path of a process's own GET, from an entry of `GET /v1/processes`. */
const PATHS: Record<string, (id: number) => string> = {
  primary: () => '/v1/primary/status',
  nfv: (id) => `/v1/nfvs/${id}`,
  vf: (id) => `/v1/vfs/${id}`,
  mirror: (id) => `/v1/mirrors/${id}`,
  pcap: (id) => `/v1/pcaps/${id}`,
}
/** An entry of `GET /v1/processes`, and the path of its own GET. */
type Listed = { type: string; 'client-id'?: number }
const pathOf = (p: Listed) => PATHS[p.type]!(p['client-id'] ?? 0)

/** One poll `way` (`seen`: the ETag a dashboard polling with If-None-Match last saw). */
const pollOnce = (api: string, agent: Agent, way: Way, seen: { etag?: string | undefined }) =>
  way === 'spp'
    ? pollSppWay(api, agent)
    : pollTopology(api, agent, way === 'etag' ? seen : undefined)

/** SPP's way: the list of processes, then each process's status, one after another. */
async function pollSppWay(api: string, agent: Agent) {
  const list = await request(api, '/v1/processes', agent)
  if (!list.ok) return { requests: 1, errors: 1 }
  const processes = JSON.parse(list.body) as Listed[]
  let errors = 0
  for (const p of processes) if (!(await request(api, pathOf(p), agent)).ok) errors++
  return { requests: 1 + processes.length, errors }
}

/**
 * The dashboard's own route: the whole topology in one request; with `seen`, If-None-Match of the
 * ETag it last saw (a 304 keeps what it has).
 */
async function pollTopology(api: string, agent: Agent, seen?: { etag?: string | undefined }) {
  const headers = seen?.etag ? { 'If-None-Match': seen.etag } : undefined
  const { ok, etag } = await request(api, '/v1/topology', agent, headers)
  if (seen && ok) seen.etag = etag
  return { requests: 1, errors: ok ? 0 : 1 }
}

type Answer = { ok: boolean; body: string; etag?: string | undefined }

/** One GET over the dashboard's connection; a failure or a status not 2xx (or 304) is not `ok`. */
function request(
  api: string,
  path: string,
  agent: Agent,
  headers?: Record<string, string>,
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = get(`${api}${path}`, { agent, timeout: 10_000, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const status = res.statusCode ?? 0
        resolve({
          ok: (status >= 200 && status < 300) || (status === 304 && headers !== undefined),
          body: Buffer.concat(chunks).toString(),
          etag: res.headers.etag,
        })
      })
      res.on('error', () => resolve({ ok: false, body: '' }))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve({ ok: false, body: '' }))
  })
}

/**
 * Polls back to back on a few connections, each way in turn, for `seconds`: V8 compiles the code
 * a dashboard runs once it has run often, which at a dashboard's pace takes minutes.
 */
async function warmUp(rig: Watched, ways: readonly Way[], seconds: number) {
  const until = performance.now() + seconds * 1000
  const before = cpuSeconds(rig.controller.pid)
  let polls = 0
  await Promise.all(
    Array.from({ length: WARM_UP_CONNECTIONS }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      const seen = {}
      for (let i = 0; performance.now() < until; i++, polls++)
        await pollOnce(rig.api, agent, ways[i % ways.length]!, seen)
      agent.destroy()
    }),
  )
  const cpu = Math.round((1000 * (cpuSeconds(rig.controller.pid) - before)) / seconds) / 10
  return { seconds, polls, cpu }
}
