// Throughput, latency and memory of spp-ctl as shipped (compiled), against its baselines in the
// same run: a minimal hono app and a bare node:http server answering the same bytes, and the raw
// round trip of the simulated nfv with no controller in between. Not part of `npm test`.
// Usage: npm run bench -- [--seconds 5] [--quick] [--profile]   (writes bench-results/bench-*.json)
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { startChild, stopChild } from './lib/children.ts'
import { freePort, startControllerProcess } from './lib/controller-process.ts'
import { load, type Figures, type Load } from './lib/load.ts'
import { rawRoundTrips } from './lib/raw-roundtrip.ts'
import { report, type Results } from './lib/report.ts'
import { measureStartup } from './lib/startup.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    quick: { type: 'boolean', default: false }, // 1 s per figure, fewer start-ups and steps
    profile: { type: 'boolean', default: false },
  },
})
const quick = values.quick
const seconds = Number(values.seconds ?? (quick ? 1 : 5))
const CONNECTIONS = 64
const out = new URL('../bench-results/', import.meta.url).pathname
mkdirSync(out, { recursive: true })
const log = (line: string) => process.stderr.write(`${line}\n`)

// Start-up first, on a quiet machine: each start is a fresh process of the shipped command.
const startup = {
  compiled: await measureStartup('compiled', quick ? 3 : 7),
  ...(quick ? {} : { tsx: await measureStartup('tsx', 3) }),
}
log(`start-up: ${startup.compiled.listeningMs} ms, ${startup.compiled.idleRssMiB.toFixed(1)} MiB`)
const raw = await rawRoundTrips(seconds)
log(`raw nfv round trip: ${raw.rps}/s`)

const controller = await startControllerProcess(
  [],
  values.profile ? ['--cpu-prof', `--cpu-prof-dir=${out}`] : [],
  { countLogs: false },
)
const api = `http://127.0.0.1:${controller.apiPort}`
const sims = (args: string[]) =>
  startChild(
    'bin/spp-sim.js',
    ['-p', String(controller.primaryPort), '-s', String(controller.secondaryPort)].concat([
      '--poll-ms',
      '0',
      ...args,
    ]),
    /connected/,
    'stderr',
  )
const processesUp = async (count: number) => {
  for (let i = 0; i < 600; i++) {
    const listed = (await fetch(`${api}/v1/processes`).then((r) => r.json())) as unknown[]
    if (listed.length >= count) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`fewer than ${count} processes registered`)
}
const children = [await sims(['--primary', '--nfv', '1', '--vf', '2', '--mirror', '3'])]
await processesUp(4)

const LOADS: Record<string, Load> = {
  'GET /v1/processes': { method: 'GET', path: '/v1/processes' },
  'GET /v1/nfvs/1': { method: 'GET', path: '/v1/nfvs/1' },
  'GET /v1/vfs/2': { method: 'GET', path: '/v1/vfs/2' },
  'PUT /v1/nfvs/1/patches': {
    method: 'PUT',
    path: '/v1/nfvs/1/patches',
    body: JSON.stringify({ src: 'phy:0', dst: 'phy:1' }),
  },
}

// The baselines answer exactly what the controller answers.
const responses: Record<string, string> = {}
for (const { method, path, body } of Object.values(LOADS)) {
  const r = await fetch(api + path, { method, body })
  responses[`${method} ${path}`] = r.status === 204 ? '' : await r.text()
}
writeFileSync(`${out}responses.json`, JSON.stringify(responses))
const baseline = async (script: string) => {
  const port = await freePort()
  const child = await startChild(script, [String(port), `${out}responses.json`], /listening/)
  return { child, url: `http://127.0.0.1:${port}` }
}
const hono = await baseline('bench/hono-server.ts')
const bare = await baseline('bench/bare-server.ts')

const measure = async (url: string, target: Load | Load[]) => {
  await load(url, target, CONNECTIONS, 1) // warm-up
  return load(url, target, CONNECTIONS, seconds)
}
const endpoints: Results['endpoints'] = []
for (const [endpoint, target] of Object.entries(LOADS)) {
  const cpuBefore = controller.cpuSeconds()
  const ours = await measure(api, target)
  ours.cpu = Math.round((100 * (controller.cpuSeconds() - cpuBefore)) / (seconds + 1)) // % of one core
  const row = { endpoint, controller: ours, hono: await measure(hono.url, target) }
  endpoints.push({ ...row, bare: await measure(bare.url, target) })
  log(`${endpoint} x${CONNECTIONS}: ${ours.rps}/s, hono ${row.hono.rps}/s`)
}
const peakRssMiB = controller.peakRssMiB()
await stopChild(hono.child)
await stopChild(bare.child)

// How cost grows with connected processes: one of them polled, then all of them in turn.
const scaling: Results['scaling'] = []
let connected = 1
for (const processes of quick ? [1, 128] : [1, 16, 128]) {
  if (processes > connected) {
    const ids = Array.from({ length: processes - connected }, (_, i) => 100 + connected + i)
    children.push(await sims(ids.flatMap((id) => ['--nfv', String(id)])))
    connected = processes
    await processesUp(3 + processes)
  }
  const ids = [1, ...Array.from({ length: processes - 1 }, (_, i) => 101 + i)]
  const all = ids.map((id): Load => ({ method: 'GET', path: `/v1/nfvs/${id}` }))
  const one = await measure(api, LOADS['GET /v1/nfvs/1']!)
  const every = await load(api, all, CONNECTIONS, seconds)
  scaling.push({ processes, one, all: every, rssMiB: controller.rssMiB() })
  log(`${processes} processes: ${one.rps}/s, ${every.rps}/s over all`)
}
const finalPeakRssMiB = controller.peakRssMiB()
for (const child of children) await stopChild(child)
await controller.stop()

const results: Results = {
  date: new Date().toISOString(),
  machine: { nproc: availableParallelism(), cpu: cpus()[0]?.model ?? '?', node: process.version },
  seconds,
  connections: CONNECTIONS,
  startup,
  endpoints,
  raw,
  peakRssMiB,
  scaling,
  finalPeakRssMiB,
}
const failed = [
  ...endpoints.flatMap((e) => [e.controller, e.hono, e.bare]),
  ...scaling.flatMap((s) => [s.one, s.all]),
].filter((f: Figures) => f.errors + f.non2xx > 0).length
process.stdout.write(`${report(results)}\n`)
if (failed > 0)
  process.stdout.write(`\n${failed} figures had errors or non-2xx answers: see the JSON.\n`)
const file = `${out}bench-${Date.now()}.json`
writeFileSync(file, JSON.stringify({ ...results, quick }, null, 2))
process.stdout.write(`\nwritten to ${file}\n`)
