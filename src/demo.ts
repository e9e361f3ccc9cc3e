import { parseArgs } from 'node:util'
import { DEFAULTS, startController } from './controller.ts'
import { createLogger } from './logger.ts'
import { startSims, type SimSpec } from './sim/start-sims.ts'

/** The controller on its default ports, with a simulated primary, nfv 1, vf 2 and mirror 3. */
const { values } = parseArgs({
  options: {
    'poll-ms': { type: 'string', default: '1000' },
    'log-level': { type: 'string', default: 'info' },
  },
})
const log = createLogger(values['log-level'] as 'info')
const controller = await startController({ ...DEFAULTS, log })
const specs: SimSpec[] = [
  { kind: 'primary' },
  { kind: 'nfv', clientId: 1 },
  { kind: 'vf', clientId: 2 },
  { kind: 'mirror', clientId: 3 },
]
let pending = specs.length
const registered = new Promise<void>((resolve) =>
  controller.registry.on('registered', () => --pending === 0 && resolve()),
)
const sims = await startSims(specs, {
  primaryPort: controller.primaryPort,
  secondaryPort: controller.secondaryPort,
  pollMs: Number(values['poll-ms']),
  reconnect: true,
})
await registered

const api = `http://localhost:${controller.apiPort}`
process.stdout.write(`
spp-ctl is running on ${api} with a simulated primary, nfv 1, vf 2 and mirror 3
(vf and mirror read their socket once a second, as SPP's do: their requests take up to 1 s).

  The live topology: ${api}/
  The API docs:      ${api}/docs

Try:

  curl -s ${api}/v1/processes
  curl -s ${api}/v1/nfvs/1
  curl -s -X PUT ${api}/v1/nfvs/1/ports -d '{"action": "add", "port": "ring:0"}'
  curl -s -X PUT ${api}/v1/nfvs/1/patches -d '{"src": "phy:0", "dst": "ring:0"}'
  curl -s -X PUT ${api}/v1/nfvs/1/forward -d '{"action": "start"}'
  curl -s -X POST ${api}/v1/vfs/2/components -d '{"name": "fwd1", "core": 2, "type": "forward"}'
  curl -s ${api}/v1/vfs/2
  curl -s ${api}/v1/mirrors/3
  curl -s ${api}/v1/primary/status

Every endpoint is in README.md. Ctrl-C stops everything.
`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const sim of sims) sim.stop()
    void controller.close().then(() => process.exit(0))
  })
}
