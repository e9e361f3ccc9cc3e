// The HTTP part of the benchmark: start-up and idle memory, then each request at 1 and 64
// connections on this controller (default flags: the state directory on), on one with
// `--state-dir none` (PUT only), on the stack's minimal hono app and on SPP's controller when its
// directory is given, taking turns case by case; then more processes, and the peak RSS.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHono } from './baselines.ts'
import { CONNECTIONS, ENDPOINTS, type Endpoint } from './cases.ts'
import { startControllerProcess } from './controller-process.ts'
import type { Figures, Load } from './figures.ts'
import { load, type Generator } from './load.ts'
import { measure, type Server } from './measure.ts'
import { processMix, startRig, type Rig } from './rig.ts'
import { startSppController } from './spp-controller.ts'
import { measureStartup, type Startup } from './startup.ts'

/** The servers a case runs on: this controller with default flags, with `--state-dir none`, the hono app, SPP's. */
export const SERVERS = ['spp-ctl', 'state dir none', 'hono', 'SPP'] as const
/** One of them. */
export type ServerName = (typeof SERVERS)[number]

/** One request at one number of connections, on each server that ran it. */
export type CaseRow = {
  endpoint: Endpoint
  connections: number
  figures: Partial<Record<ServerName, Figures>>
}
/** Everything the HTTP part measured. */
export type HttpResults = {
  startup: Startup
  rows: CaseRow[]
  /** Every nfv in turn at 64 connections, with more processes connected. */
  scaling: { processes: number; figures: Figures; rssMiB: number }[]
  /** This controller's peak RSS (VmHWM) over all of the above. */
  peakRssMiB: number
  /** SPP's controller's RSS once its processes were connected, and at its peak. */
  spp?: { idleRssMiB: number; peakRssMiB: number }
}

/** The options of a run. */
export type HttpOptions = {
  seconds: number
  sppDir?: string
  nodeArgs: string[]
  /** Each server answers its cases' requests back to back this long before the first figure. */
  warmUpSeconds: number
  /** Only these requests, at these numbers of connections (and no more processes after). */
  only?: { endpoints?: Endpoint[]; connections?: number[] }
}

const PROCESSES = 4

/** Runs it all; `log` hears of each figure as it is measured. */
export async function httpCase(
  generator: Generator,
  { seconds, sppDir, nodeArgs, warmUpSeconds, only = {} }: HttpOptions,
  log: (line: string) => void,
): Promise<HttpResults> {
  // Start-up first, on a quiet machine, each start a fresh process remembering in one directory.
  const startDir = mkdtempSync(join(tmpdir(), 'spp-ctl-start-'))
  const startup = await measureStartup(5, startDir).finally(() =>
    rmSync(startDir, { recursive: true, force: true }),
  )
  log(`start-up: listening after ${startup.listeningMs} ms, ${startup.idleRssMiB.toFixed(1)} MiB`)

  const endpoints = only.endpoints ?? (Object.keys(ENDPOINTS) as Endpoint[])
  const connectionCounts = only.connections ?? [...CONNECTIONS]
  const stateDir = mkdtempSync(join(tmpdir(), 'spp-ctl-state-'))
  const rigs: Rig[] = []
  const rigOf = async (controller: Parameters<typeof startRig>[0]) => {
    const rig = await startRig(controller, processMix(PROCESSES), PROCESSES, 0)
    rigs.push(rig)
    return rig
  }
  const serverOf = (rig: Rig): Server => ({ url: rig.api, pid: rig.controller.pid })
  try {
    const ours = await rigOf(
      await startControllerProcess(['--state-dir', stateDir], nodeArgs, { countLogs: false }),
    )
    const none = await rigOf(
      await startControllerProcess(['--state-dir', 'none'], nodeArgs, { countLogs: false }),
    )
    const spp = sppDir ? await rigOf(await startSppController(sppDir)) : undefined
    const sppIdle = spp?.controller.rssMiB()
    // The hono app answers exactly what this controller answers.
    const responses: Record<string, string> = {}
    for (const { method, path, body } of Object.values(ENDPOINTS) as Load[]) {
      const r = await fetch(ours.api + path, { method, body })
      responses[`${method} ${path}`] = r.status === 204 ? '' : await r.text()
    }
    const hono = await startHono(responses)
    const rows: CaseRow[] = []
    try {
      // A server measured cold shows V8 compiling, not the server: a controller that had answered
      // nothing took about 6 s of PUTs at one connection to reach its steady CPU per request, and
      // 10 s at 64 connections left one connection's path still to compile (docs/speed.md). Each
      // server first answers every request it will be measured on, at 64 connections and then at
      // one (the first figures are at one), half the time each (all of it at the one count that
      // --connections keeps).
      if (warmUpSeconds > 0) {
        const loads = endpoints.map((endpoint) => ENDPOINTS[endpoint])
        const puts = endpoints.filter((e) => e.startsWith('PUT')).map((e) => ENDPOINTS[e])
        const cases: [Server, Load[]][] = [
          [serverOf(ours), loads],
          ...(puts.length > 0 ? [[serverOf(none), puts] as [Server, Load[]]] : []),
          [hono, loads],
          ...(spp ? [[serverOf(spp), loads] as [Server, Load[]]] : []),
        ]
        const counts = [...connectionCounts].sort((a, b) => b - a)
        for (const [server, loads] of cases)
          for (const connections of counts)
            await load(generator, server.url, loads, connections, warmUpSeconds / counts.length)
        log(
          `each server warmed up: ${warmUpSeconds} s of its requests, ` +
            `at ${counts.join(' and then ')} connection(s)`,
        )
      }
      for (const connections of connectionCounts)
        for (const endpoint of endpoints) {
          const servers: (readonly [ServerName, Server])[] = [
            ['spp-ctl', serverOf(ours)],
            ...(endpoint.startsWith('PUT') ? [['state dir none', serverOf(none)] as const] : []),
            ['hono', hono],
            ...(spp ? [['SPP', serverOf(spp)] as const] : []),
          ]
          const figures: CaseRow['figures'] = {}
          for (const [name, server] of servers)
            figures[name] = await measure(
              generator,
              server,
              ENDPOINTS[endpoint],
              connections,
              seconds,
            )
          rows.push({ endpoint, connections, figures })
          log(
            `${endpoint} x${connections}: ` +
              Object.entries(figures)
                .map(([name, f]) => `${name} ${f.rps}/s ${f.cpuUs} µs/req`)
                .join(', '),
          )
        }
    } finally {
      await hono.stop()
    }
    const sppPeak = spp?.controller.peakRssMiB()

    // More processes: every nfv in turn, with 16 and then 128 connected (nfvs 104 and up).
    const scaling: HttpResults['scaling'] = []
    const added = (total: number) =>
      Array.from({ length: total - PROCESSES }, (_, i) => 100 + PROCESSES + i)
    let connected = PROCESSES
    for (const processes of only.endpoints || only.connections ? [] : [16, 128]) {
      const ids = added(processes).slice(connected - PROCESSES)
      await ours.addSims(
        ids.flatMap((id) => ['--nfv', String(id)]),
        processes,
      )
      connected = processes
      const all = [1, ...added(processes)].map((id): Load => ({
        method: 'GET',
        path: `/v1/nfvs/${id}`,
      }))
      const figures = await measure(generator, serverOf(ours), all, 64, seconds)
      scaling.push({ processes, figures, rssMiB: ours.controller.rssMiB() })
      log(`${processes} processes, every nfv in turn x64: ${figures.rps}/s ${figures.cpuUs} µs/req`)
    }
    return {
      startup,
      rows,
      scaling,
      peakRssMiB: ours.controller.peakRssMiB(),
      ...(spp ? { spp: { idleRssMiB: sppIdle!, peakRssMiB: sppPeak! } } : {}),
    }
  } finally {
    for (const rig of rigs) await rig.stop()
    rmSync(stateDir, { recursive: true, force: true })
  }
}
