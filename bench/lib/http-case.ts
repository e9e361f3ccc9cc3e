// The main part of the benchmark: start-up, the raw round trip, each case at 1 and 64 connections
// on the controller and its baselines, the state directory's cost, and scaling with processes.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBaselines } from './baselines.ts'
import { CONNECTIONS, ENDPOINTS, SIMS, type Endpoint } from './cases.ts'
import type { Generator, Load } from './load.ts'
import { load } from './load.ts'
import { measure, medianOf, type Measured } from './measure.ts'
import { rawRoundTrips } from './raw-roundtrip.ts'
import type { HttpResults } from './report.ts'
import { startRig } from './rig.ts'
import { measureIdleFloor } from './idle-floor.ts'
import { measureStartup } from './startup.ts'
import { compareFlags, controllerHas } from './variants.ts'

/** Runs it all; `quick` takes fewer start-ups and scaling steps. */
export async function httpCase(
  generator: Generator,
  { seconds, quick, repeat }: { seconds: number; quick: boolean; repeat: number },
  log: (line: string) => void,
): Promise<HttpResults> {
  // Start-up first, on a quiet machine: each start is a fresh process of the shipped command,
  // with --state-dir none and with the state directory on (the default).
  const stateDir = controllerHas('--state-dir')
    ? mkdtempSync(join(tmpdir(), 'spp-ctl-state-'))
    : undefined
  const startup = {
    compiled: await measureStartup('compiled', quick ? 3 : 7),
    ...(stateDir ? { stateDir: await measureStartup('compiled', quick ? 3 : 7, stateDir) } : {}),
    ...(quick ? {} : { tsx: await measureStartup('tsx', 3) }),
    floor: await measureIdleFloor(quick ? 3 : 5),
  }
  if (stateDir) rmSync(stateDir, { recursive: true, force: true })
  const { listeningMs, idleRssMiB } = startup.compiled
  log(
    `start-up: ${listeningMs} ms, ${idleRssMiB.toFixed(1)} MiB` +
      (startup.stateDir ? `; state dir on: ${startup.stateDir.idleRssMiB.toFixed(1)} MiB` : ''),
  )
  const raw = await rawRoundTrips(seconds)
  log(`raw nfv round trip: ${raw.rps}/s`)

  const rig = await startRig(SIMS.args, SIMS.count, { pollMs: 0 })
  const controller = { url: rig.api, pid: rig.controller.pid }
  // The baselines answer exactly what the controller answers.
  const responses: Record<string, string> = {}
  for (const { method, path, body } of Object.values(ENDPOINTS) as Load[]) {
    const r = await fetch(rig.api + path, { method, body })
    responses[`${method} ${path}`] = r.status === 204 ? '' : await r.text()
  }
  const baselines = await startBaselines(responses)
  // Each round measures every case on every server; with `repeat` > 1 each figure is the median
  // of its rounds, which are spread over the run.
  const runs = new Map<string, Measured[]>()
  const servers = { controller, hono: baselines.hono, bare: baselines.bare }
  for (let round = 1; round <= repeat; round++)
    for (const connections of CONNECTIONS)
      for (const endpoint of Object.keys(ENDPOINTS) as Endpoint[]) {
        const got: string[] = []
        for (const [name, server] of Object.entries(servers)) {
          const figures = await measure(
            generator,
            server,
            ENDPOINTS[endpoint],
            connections,
            seconds,
          )
          runs.set(`${endpoint} ${connections} ${name}`, [
            ...(runs.get(`${endpoint} ${connections} ${name}`) ?? []),
            figures,
          ])
          got.push(`${name} ${figures.rps}/s ${figures.cpuUs} µs/req`)
        }
        log(`${round}/${repeat} ${endpoint} x${connections}: ${got.join(', ')}`)
      }
  const rows = CONNECTIONS.flatMap((connections) =>
    (Object.keys(ENDPOINTS) as Endpoint[]).map((endpoint) => {
      const of = (name: string) => medianOf(runs.get(`${endpoint} ${connections} ${name}`)!)
      return {
        endpoint,
        connections,
        controller: of('controller'),
        hono: of('hono'),
        bare: of('bare'),
      }
    }),
  )
  const peakRssMiB = rig.controller.peakRssMiB()
  await baselines.stop()

  // How cost grows with connected processes: one of them polled, then all of them in turn.
  const scaling: HttpResults['scaling'] = []
  let connected = 1
  for (const processes of quick ? [1, 128] : [1, 16, 128]) {
    if (processes > connected) {
      const ids = Array.from({ length: processes - connected }, (_, i) => 100 + connected + i)
      await rig.addSims(
        ids.flatMap((id) => ['--nfv', String(id)]),
        3 + processes,
      )
      connected = processes
    }
    const ids = [1, ...Array.from({ length: processes - 1 }, (_, i) => 101 + i)]
    const all = ids.map((id): Load => ({ method: 'GET', path: `/v1/nfvs/${id}` }))
    const one = await measure(generator, controller, ENDPOINTS['GET /v1/nfvs/1'], 64, seconds)
    const every = await load(generator, rig.api, all, 64, seconds)
    scaling.push({ processes, one, all: every, rssMiB: rig.controller.rssMiB() })
    log(`${processes} processes: ${one.rps}/s, ${every.rps}/s over all`)
  }
  const finalPeakRssMiB = rig.controller.peakRssMiB()
  await rig.stop()
  return { startup, rows, raw, peakRssMiB, scaling, finalPeakRssMiB, state: await stateCase() }

  // The state directory: every case with it on (the default; durable writes for PUT, the remember
  // issue) and with none, taking turns, with each one's peak RSS.
  async function stateCase(): Promise<HttpResults['state']> {
    if (!controllerHas('--state-dir'))
      return { skipped: 'spp-ctl --help does not list --state-dir yet' }
    const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-state-'))
    try {
      const variants = [
        { name: 'state dir on', flags: ['--state-dir', dir] },
        { name: '--state-dir none', flags: ['--state-dir', 'none'] },
      ]
      const endpoints = Object.keys(ENDPOINTS) as Endpoint[]
      const peaks = new Map<string, number>()
      const options = { seconds, repeat, peaks }
      const rows = await compareFlags(generator, options, variants, endpoints, CONNECTIONS, log)
      return { rows, peakRssMiB: Object.fromEntries(peaks) }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
