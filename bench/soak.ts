// Mixed load with misbehaving processes, for a given time; prints what was served and the
// controller's memory. Not part of `npm test`. Usage: npm run soak -- [--seconds 60] [--connections 16]
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import type { SimProcess } from '../src/sim/sim-process.ts'
import { startSims, type SimSpec, type SimTarget } from '../src/sim/start-sims.ts'
import { startControllerProcess } from './lib/controller-process.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '16' },
  },
})
const seconds = Number(values.seconds)
const connections = Number(values.connections)
const COMMAND_TIMEOUT = 1000

const controller = await startControllerProcess([
  '--command-timeout',
  String(COMMAND_TIMEOUT),
  '--log-level',
  'warn',
])
const target: SimTarget = {
  primaryPort: controller.primaryPort,
  secondaryPort: controller.secondaryPort,
  reconnect: true,
}
const sims: SimProcess[] = []
const start = async (specs: SimSpec[], extra: Partial<SimTarget> = {}) =>
  sims.push(...(await startSims(specs, { ...target, ...extra })))
// Healthy processes.
await start([
  { kind: 'primary' },
  { kind: 'nfv', clientId: 1 },
  { kind: 'vf', clientId: 2 },
  { kind: 'mirror', clientId: 3 },
])
// Misbehaving ones; a reconnect starts their count again, so the connection-ending faults recur.
await start([{ kind: 'nfv', clientId: 11 }], { faults: { closeAt: 40 } })
await start([{ kind: 'nfv', clientId: 12 }], { faults: { silentAt: 25 } })
await start([{ kind: 'vf', clientId: 13 }], { faults: { garbageAt: 30 } })
await start([{ kind: 'nfv', clientId: 14 }], { faults: { delayMs: COMMAND_TIMEOUT + 500 } })
await start([{ kind: 'vf', clientId: 15 }], {
  faults: { splitWrites: 40, padStatusBytes: 200_000 },
})
await start([{ kind: 'vf', clientId: 16 }], { faults: { endlessAt: 20 } })
await start([{ kind: 'nfv', clientId: 17 }], {
  faults: { late: { at: 5, ms: COMMAND_TIMEOUT + 300 } },
})
await start([{ kind: 'nfv', clientId: 18 }], { faults: { silentHandshake: true } })
let commands = 0
for (const sim of sims) sim.on('command', () => commands++)

const json = (method: string, path: string, body: unknown) => ({
  method: method as 'PUT',
  path,
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
const requests = [
  { method: 'GET' as const, path: '/v1/processes' },
  { method: 'GET' as const, path: '/v1/nfvs/1' },
  json('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' }),
  json('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:1' }),
  json('PUT', '/v1/nfvs/1/forward', { action: 'start' }),
  json('PUT', '/v1/nfvs/1/ports', { action: 'del', port: 'ring:1' }),
  { method: 'GET' as const, path: '/v1/vfs/2' },
  json('POST', '/v1/vfs/2/components', { name: 'soak', core: 2, type: 'forward' }),
  { method: 'DELETE' as const, path: '/v1/vfs/2/components/soak' },
  { method: 'GET' as const, path: '/v1/mirrors/3' },
  { method: 'GET' as const, path: '/v1/primary/status' },
  { method: 'GET' as const, path: '/v1/nfvs/11' },
  { method: 'GET' as const, path: '/v1/nfvs/12' },
  { method: 'GET' as const, path: '/v1/vfs/13' },
  { method: 'GET' as const, path: '/v1/nfvs/14' },
  { method: 'GET' as const, path: '/v1/vfs/15' },
  { method: 'GET' as const, path: '/v1/vfs/16' },
  { method: 'GET' as const, path: '/v1/nfvs/17' },
  json('PUT', '/v1/nfvs/1/ports', '{"action": "add", "port": "ring:0 exit"}'),
  json('PUT', '/v1/vfs/2/components/a%20b/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }),
  json('PUT', '/v1/nfvs/1/forward', '{not json'),
]

await new Promise((resolve) => setTimeout(resolve, 1500)) // let every process identify
const startRss = controller.rssMiB()
const startedAt = Date.now()
const result = await autocannon({
  url: `http://127.0.0.1:${controller.apiPort}`,
  connections,
  duration: seconds,
  requests,
  timeout: 10,
})
const endRss = controller.rssMiB()
const peak = controller.peakRssMiB()
for (const sim of sims) sim.stop()
const exitCode = await controller.stop()

const byStatus = Object.entries(result.statusCodeStats ?? {})
  .map(([status, { count }]) => `${status}: ${count}`)
  .join(', ')
process.stdout
  .write(`spp-ctl soak: ${((Date.now() - startedAt) / 1000).toFixed(0)} s, ${connections} connections, ${sims.length} simulated processes (9 misbehaving)
requests served:      ${result.requests.total} (${result.requests.average.toFixed(0)}/s average)
responses by status:  ${byStatus}
client errors:        ${result.errors} (connection failures), ${result.timeouts} timeouts (none allowed over 10 s)
latency:              p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms
commands sent:        ${commands} (received by the simulated processes, handshakes included)
controller RSS:       ${startRss.toFixed(1)} MiB at start, ${endRss.toFixed(1)} MiB at end, peak ${peak.toFixed(1)} MiB
controller log lines: ${[...controller.logLevels].map(([level, n]) => `${level} ${n}`).join(', ') || 'none'}
controller exit code: ${exitCode} after SIGTERM
`)
