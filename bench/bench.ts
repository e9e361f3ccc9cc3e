// Throughput and latency of spp-ctl against a bare node:http server answering the same bytes, and
// how its cost grows with connected processes. Not part of `npm test`.
// Usage: npm run bench -- [--seconds 5] [--profile]   (writes bench-results/bench-*.json)
import { mkdirSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { startChild, stopChild } from './lib/children.ts'
import { startControllerProcess } from './lib/controller-process.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    profile: { type: 'boolean', default: false },
  },
})
const seconds = Number(values.seconds)
const out = new URL('../bench-results/', import.meta.url).pathname
mkdirSync(out, { recursive: true })

type Load = { method: 'GET' | 'PUT'; path: string; body?: string }
type Figures = {
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  cpu?: number
}

async function load(
  url: string,
  target: Load | Load[],
  connections: number,
  duration = seconds,
): Promise<Figures> {
  const requests = Array.isArray(target) ? target : [target]
  const result = await autocannon({
    url,
    connections,
    duration,
    requests,
    headers: { 'content-type': 'application/json' },
  })
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }
}

const processesUp = async (api: string, count: number) => {
  for (let i = 0; i < 600; i++) {
    const listed = (await fetch(`${api}/v1/processes`).then((r) => r.json())) as unknown[]
    if (listed.length >= count) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`fewer than ${count} processes registered`)
}

const sims = (controller: { primaryPort: number; secondaryPort: number }, args: string[]) =>
  startChild(
    'src/sim/cli.ts',
    [
      '-p',
      String(controller.primaryPort),
      '-s',
      String(controller.secondaryPort),
      '--poll-ms',
      '0',
      ...args,
    ],
    /connected/,
    'stderr',
  )

// The controller and the simulated processes (answering at once), each in its own process.
const controller = await startControllerProcess(
  ['--log-level', 'warn'],
  values.profile ? ['--cpu-prof', `--cpu-prof-dir=${out}`] : [],
)
const api = `http://127.0.0.1:${controller.apiPort}`
const children = [await sims(controller, ['--primary', '--nfv', '1', '--vf', '2', '--mirror', '3'])]
await processesUp(api, 4)

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

// The bare server answers exactly what the controller answers.
const responses: Record<string, string> = {}
for (const { method, path, body } of Object.values(LOADS)) {
  const r = await fetch(api + path, { method, body })
  responses[`${method} ${path}`] = r.status === 204 ? '' : await r.text()
}
writeFileSync(`${out}bare-responses.json`, JSON.stringify(responses))
const barePort = controller.apiPort + 1
const bare = await startChild(
  'bench/bare-server.ts',
  [String(barePort), `${out}bare-responses.json`],
  /listening/,
)
const bareUrl = `http://127.0.0.1:${barePort}`

type Row = { endpoint: string; connections: number; controller: Figures; bare: Figures }
const rows: Row[] = []
for (const [endpoint, target] of Object.entries(LOADS)) {
  for (const connections of [1, 64]) {
    await load(api, target, connections, 1) // warm-up
    const cpuBefore = controller.cpuSeconds()
    const ours = await load(api, target, connections)
    ours.cpu = Math.round((100 * (controller.cpuSeconds() - cpuBefore)) / seconds) // % of one core
    await load(bareUrl, target, connections, 1)
    const theirs = await load(bareUrl, target, connections)
    rows.push({ endpoint, connections, controller: ours, bare: theirs })
    process.stderr.write(`${endpoint} x${connections}: ${ours.rps}/s vs ${theirs.rps}/s\n`)
  }
}
const peakRssMiB = controller.peakRssMiB()
await stopChild(bare)

// How cost grows with connected processes: one of them polled, then all of them in turn.
type Scale = { processes: number; oneProcess: Figures; allProcesses: Figures; rssMiB: number }
const scaling: Scale[] = []
let connected = 1
for (const processes of [1, 16, 128]) {
  if (processes > connected) {
    const ids = Array.from({ length: processes - connected }, (_, i) => [
      '--nfv',
      String(100 + connected + i),
    ]).flat()
    children.push(await sims(controller, ids))
    connected = processes
    await processesUp(api, 3 + processes)
  }
  const ids = [1, ...Array.from({ length: processes - 1 }, (_, i) => 101 + i)]
  const all = ids.map((id): Load => ({ method: 'GET', path: `/v1/nfvs/${id}` }))
  await load(api, LOADS['GET /v1/nfvs/1']!, 64, 1)
  const oneProcess = await load(api, LOADS['GET /v1/nfvs/1']!, 64)
  const allProcesses = await load(api, all, 64)
  scaling.push({ processes, oneProcess, allProcesses, rssMiB: controller.rssMiB() })
  process.stderr.write(
    `${processes} processes: ${oneProcess.rps}/s, ${allProcesses.rps}/s over all\n`,
  )
}
const finalPeak = controller.peakRssMiB()
for (const child of children) await stopChild(child)
await controller.stop()

const pct = (a: number, b: number) => `${Math.round((100 * a) / b)}%`
const lines = [
  `spp-ctl benchmark: ${seconds} s per figure, autocannon, simulated processes answering at once, ${new Date().toISOString()}`,
  '',
  '| endpoint | conns | spp-ctl req/s | p50 ms | p99 ms | errors | spp-ctl CPU | bare req/s | bare p99 ms | req/s ratio |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    ({ endpoint, connections, controller: c, bare: b }) =>
      `| ${endpoint} | ${connections} | ${c.rps} | ${c.p50} | ${c.p99} | ${c.errors + c.non2xx} | ${c.cpu}% | ${b.rps} | ${b.p99} | ${pct(c.rps, b.rps)} |`,
  ),
  '',
  `controller peak RSS during the endpoint runs: ${peakRssMiB.toFixed(1)} MiB. spp-ctl CPU: % of one core used by the controller process.`,
  'Each PUT is one command to the process: its req/s is the commands/s the process round trip allows.',
  '',
  '| processes connected | GET /v1/nfvs/1 x64 req/s | p50 ms | p99 ms | all nfvs in turn x64 req/s | p99 ms | RSS MiB |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...scaling.map(
    ({ processes, oneProcess: o, allProcesses: a, rssMiB }) =>
      `| ${processes} | ${o.rps} | ${o.p50} | ${o.p99} | ${a.rps} | ${a.p99} | ${rssMiB.toFixed(1)} |`,
  ),
  '',
  `controller peak RSS over the whole run: ${finalPeak.toFixed(1)} MiB`,
]
process.stdout.write(`${lines.join('\n')}\n`)
const file = `${out}bench-${Date.now()}.json`
writeFileSync(
  file,
  JSON.stringify({ seconds, rows, peakRssMiB, scaling, finalPeakRssMiB: finalPeak }, null, 2),
)
process.stdout.write(`\nwritten to ${file}\n`)
