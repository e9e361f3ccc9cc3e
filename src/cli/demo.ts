// npm run demo: the controller (on its default ports unless told) with a simulated SPP of either era.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { DEFAULTS, startController } from '../controller/controller.ts'
import { createLogger, LOG_FORMATS, type LogFormat, type LogLevel } from '../log/logger.ts'
import { startSims, type SimSpec } from '../sim/start-sims.ts'
import { curlLine, TRY_CHAIN } from './demo-try.ts'

/** Packets a second arriving on the demo's phy:0 (as `spp-sim --traffic phy:0=20000`). */
const DEMO_TRAFFIC = { 'phy:0': 20_000 }

/** The controller on its default ports, with a simulated primary, nfv 1, vf 2 and mirror 3. */
const { values } = parseArgs({
  options: {
    era: { type: 'string', default: '18.11' },
    'poll-ms': { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    'log-format': { type: 'string' },
    // as spp-ctl's: a demo beside another controller, and the tests, take other ports
    'pri-port': { type: 'string', short: 'p', default: String(DEFAULTS.primaryPort) },
    'sec-port': { type: 'string', short: 's', default: String(DEFAULTS.secondaryPort) },
    'api-port': { type: 'string', short: 'a', default: String(DEFAULTS.apiPort) },
    // as spp-ctl's, but a fresh temporary directory by default: each demo starts from nothing
    'state-dir': { type: 'string' },
  },
})
function fail(message: string): never {
  process.stderr.write(`demo: ${message}\n`)
  process.exit(2)
}
if (values.era !== '18.11' && values.era !== '2020') fail('--era is 18.11 or 2020')
const format = values['log-format']
if (format !== undefined && !(LOG_FORMATS as readonly string[]).includes(format))
  fail(`--log-format is ${LOG_FORMATS.join(' or ')}`)
const port = (flag: 'pri-port' | 'sec-port' | 'api-port') =>
  /^\d{1,5}$/.test(values[flag]) && Number(values[flag]) < 65536
    ? Number(values[flag])
    : fail(`--${flag} is a port number`)
const era = values.era
const pollMs = Number(values['poll-ms'] ?? (era === '2020' ? 0 : 1000))
// Logs stay on stderr, readable on a terminal (pretty) and JSON when piped or redirected.
const log = await createLogger({
  level: values['log-level'] as LogLevel,
  format: format as LogFormat | undefined,
})
const given = values['state-dir']
const temporary = given === undefined ? mkdtempSync(join(tmpdir(), 'spp-ctl-demo-')) : undefined
const stateDir = given === 'none' ? undefined : (given ?? temporary)
const controller = await startController({
  ...DEFAULTS,
  log,
  stateDir,
  primaryPort: port('pri-port'),
  secondaryPort: port('sec-port'),
  apiPort: port('api-port'),
}).catch((error: Error) => {
  // As the controller alone says it (e.g. a port in use): one line, no stack.
  if (temporary) rmSync(temporary, { recursive: true, force: true })
  log.flush()
  process.stderr.write(`demo: cannot start: ${error.message}\n`)
  process.exit(1)
})
const specs: SimSpec[] = [
  { kind: 'primary' },
  { kind: 'nfv', clientId: 1 },
  { kind: 'vf', clientId: 2 },
  { kind: 'mirror', clientId: 3 },
  ...(era === '2020' ? [{ kind: 'pcap' as const, clientId: 4 }] : []),
]
let pending = specs.length
// A controller that does not speak a kind or era never registers it: stop waiting after 5 s.
const registered = new Promise<void>((resolve) => {
  controller.registry.on('registered', () => --pending === 0 && resolve())
  setTimeout(resolve, 5000).unref()
})
const sims = await startSims(specs, {
  primaryPort: controller.primaryPort,
  secondaryPort: controller.secondaryPort,
  era,
  pollMs,
  reconnect: true,
  traffic: { sources: DEMO_TRAFFIC },
})
await registered
const started = sims.map((sim) => sim.label).join(', ')
const listed = controller.registry.list().map((p) => `${p.type} ${p['client-id'] ?? ''}`.trim())

// Before the text that says Ctrl-C stops everything: a Ctrl-C right after it finds them in place.
// SIGHUP too: a closed terminal stops the demo as Ctrl-C does, its temporary directory removed.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    for (const sim of sims) sim.stop()
    void controller.close().then(() => {
      if (temporary) rmSync(temporary, { recursive: true, force: true })
      process.exit(0)
    })
  })
}
const api = `http://localhost:${controller.apiPort}`
// spp-ctl's client commands talk to $SPP_CTL_URL, else the default port: on other ports (or with
// another controller's URL in the environment) the lines below say where this demo is.
const clientUrl = process.env.SPP_CTL_URL ?? `http://localhost:${DEFAULTS.apiPort}`
const exportUrl =
  clientUrl.replace(/\/+$/, '') === api
    ? ''
    : `${`  export SPP_CTL_URL=${api}`.padEnd(44)}# where they find this demo\n`
log.flush() // the registrations' log lines, then the text below, in that order
process.stdout.write(`
spp-ctl is running on ${api}; it remembers in ${stateDir ?? 'nothing (--state-dir none)'}.
Simulated SPP ${era} processes started: ${started}
Registered by the controller:        ${listed.join(', ') || 'none'}
${
  pollMs > 0
    ? `(vf and mirror read their socket once per ${pollMs} ms, as SPP 18.11's do: their requests wait that long.)`
    : '(vf, mirror and pcap answer at once, as SPP 2020 polls its socket every 100 us.)'
}
(phy:0 receives ${DEMO_TRAFFIC['phy:0']} packets a second: the primary counts them once nfv 1 forwards them.)

  The live topology: ${api}/
  The API docs:      ${api}/docs

Try, to build a chain: phy:0 -> nfv 1 -> ring:0 -> fwd1 of vf 2 -> phy:1, readers first:

${TRY_CHAIN.map((request) => `  ${curlLine(request, api)}\n`).join('')}
And with spp-ctl's commands:

${exportUrl}  npx spp-ctl topology get > chain.yaml     # the configuration as a document: edit it,
  npx spp-ctl topology plan -f chain.yaml   # see what would change, and
  npx spp-ctl topology apply -f chain.yaml  # do it, with progress
${stateDir ? '  npx spp-ctl journal                       # who changed what\n' : ''}
Every endpoint is in docs/rest-api.md. Ctrl-C stops everything.
`)
