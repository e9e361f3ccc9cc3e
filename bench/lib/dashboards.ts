// What watching costs the host (issue 35): dashboards polling a controller once a second, their
// polls spread over the second, each on its own keep-alive connection that idles between polls,
// against the 18.11 simulator's processes answering at once. For 4, 16 and 48 processes and 0, 1,
// 10 and 50 dashboards, two ways of polling: SPP's (`GET /v1/processes`, then each process's own
// GET, one after another) and `GET /v1/topology` (this controller only). The controller's CPU from
// /proc over the window, each poll's latency (its first request sent to its last answer read), and
// the controller's RSS at the end of the window. SPP's controller polled SPP's way beside it.
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { startControllerProcess, type Controller } from './controller-process.ts'
import { percentiles } from './figures.ts'
import { cpuSeconds } from './proc.ts'
import { processMix, startRig, type Rig } from './rig.ts'
import { startSppController } from './spp-controller.ts'

/** Processes connected, dashboards polling. */
export const PROCESS_COUNTS = [4, 16, 48] as const
export const DASHBOARD_COUNTS = [0, 1, 10, 50] as const
/** How the dashboards poll: not at all, SPP's way, or the topology document. */
export type Way = 'none' | 'spp' | 'topology'

/** One cell of the matrix on one controller. */
export type DashboardCell = {
  controller: 'spp-ctl' | 'SPP'
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
  /** Requests that failed or were not answered 2xx. */
  errors: number
  rssMiB: number
  /** Percent of a core the dashboards (this process) and the simulators used: the harness's load. */
  benchCpu: number
  simCpu: number
}

const INTERVAL_MS = 1000
/** Before each window: the dashboards' first polls, or, at rest, the settling of processes just connected. */
const WARM_UP_MS = { polling: 1000, rest: 3000 }

/** The options of a run; `seconds` is each cell's window. */
export type DashboardOptions = { seconds: number; sppDir?: string; nodeArgs: string[] }

/** Runs the matrix, one rig per number of processes (and one of SPP's beside it). */
export async function dashboardsCase(
  { seconds, sppDir, nodeArgs }: DashboardOptions,
  log: (line: string) => void,
): Promise<DashboardCell[]> {
  const cells: DashboardCell[] = []
  for (const processes of PROCESS_COUNTS) {
    const stateDir = mkdtempSync(join(tmpdir(), 'spp-ctl-state-'))
    const rigs: Rig[] = []
    try {
      const start = async (controller: Controller) => {
        const rig = await startRig(controller, processMix(processes), processes, 0)
        rigs.push(rig)
        return rig
      }
      const ours = await start(
        await startControllerProcess(['--state-dir', stateDir], nodeArgs, { countLogs: false }),
      )
      const spp = sppDir ? await start(await startSppController(sppDir)) : undefined
      for (const dashboards of DASHBOARD_COUNTS) {
        const ways: Way[] = dashboards === 0 ? ['none'] : ['spp', 'topology']
        for (const way of ways) {
          const on: (readonly [DashboardCell['controller'], Rig])[] = [
            ['spp-ctl', ours],
            ...(spp && way !== 'topology' ? [['SPP', spp] as const] : []),
          ]
          for (const [name, rig] of on) {
            const cell = await watchCell(rig, dashboards, way, seconds)
            cells.push({ controller: name, processes, ...cell })
            log(
              `${processes} processes, ${dashboards} dashboards ${way}: ${name} ${cell.cpu}% ` +
                `of a core, polls ${cell.polls}/${cell.due}, p50 ${cell.p50} ms, p99 ${cell.p99} ms; ` +
                `bench ${cell.benchCpu}%, sims ${cell.simCpu}%`,
            )
          }
        }
      }
    } finally {
      for (const rig of rigs) await rig.stop()
      rmSync(stateDir, { recursive: true, force: true })
    }
  }
  return cells
}

type Poll = { begun: number; ms: number; requests: number; errors: number }

/** One window: `dashboards` polling `way`, after a warm-up in which they already poll. */
async function watchCell(
  rig: Rig,
  dashboards: number,
  way: Way,
  seconds: number,
): Promise<Omit<DashboardCell, 'controller' | 'processes'>> {
  const { pid } = rig.controller
  const t0 = performance.now() + 20
  const from = t0 + (dashboards === 0 ? WARM_UP_MS.rest : WARM_UP_MS.polling)
  const to = from + seconds * 1000
  const polls: Poll[] = []
  const agents = Array.from(
    { length: dashboards },
    () => new Agent({ keepAlive: true, maxSockets: 1 }),
  )
  const running = agents.map((agent, i) =>
    dashboard(rig.api, agent, way, t0 + (i * INTERVAL_MS) / dashboards, to, polls),
  )
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
  const percent = (used: number) => Math.round((1000 * used) / seconds) / 10
  return {
    dashboards,
    way,
    cpu: percent(cpu),
    requests,
    ...(requests > 0 ? { cpuUs: Math.round((cpu * 1e6) / requests) } : {}),
    polls: inWindow.length,
    due: dashboards * seconds,
    ...percentiles(inWindow.map((p) => p.ms)),
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
  while (next < until) {
    await delay(Math.max(0, next - performance.now()))
    const begun = performance.now()
    const poll = way === 'spp' ? await pollSppWay(api, agent) : await pollTopology(api, agent)
    polls.push({ begun, ms: performance.now() - begun, ...poll })
    do next += INTERVAL_MS
    while (next < performance.now())
  }
}

/** The path of a process's own GET, from an entry of `GET /v1/processes`. */
const PATHS: Record<string, (id: number) => string> = {
  primary: () => '/v1/primary/status',
  nfv: (id) => `/v1/nfvs/${id}`,
  vf: (id) => `/v1/vfs/${id}`,
  mirror: (id) => `/v1/mirrors/${id}`,
  pcap: (id) => `/v1/pcaps/${id}`,
}

/** SPP's way: the list of processes, then each process's status, one after another. */
async function pollSppWay(api: string, agent: Agent) {
  const list = await request(api, '/v1/processes', agent)
  if (!list.ok) return { requests: 1, errors: 1 }
  const processes = JSON.parse(list.body) as { type: string; 'client-id'?: number }[]
  let errors = 0
  for (const p of processes)
    if (!(await request(api, PATHS[p.type]!(p['client-id'] ?? 0), agent)).ok) errors++
  return { requests: 1 + processes.length, errors }
}

/** The dashboard's own route: the whole topology in one request. */
async function pollTopology(api: string, agent: Agent) {
  const { ok } = await request(api, '/v1/topology', agent)
  return { requests: 1, errors: ok ? 0 : 1 }
}

/** One GET over the dashboard's connection; a failure or a status not 2xx is not `ok`. */
function request(api: string, path: string, agent: Agent): Promise<{ ok: boolean; body: string }> {
  return new Promise((resolve) => {
    const req = get(`${api}${path}`, { agent, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const status = res.statusCode ?? 0
        resolve({ ok: status >= 200 && status < 300, body: Buffer.concat(chunks).toString() })
      })
      res.on('error', () => resolve({ ok: false, body: '' }))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve({ ok: false, body: '' }))
  })
}
