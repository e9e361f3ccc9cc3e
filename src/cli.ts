// spp-ctl: flags, start-up, signals and exit statuses (and the `topology` client).
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { DEFAULTS, startController } from './controller.ts'
import type { NfvStatusWords } from './http/present.ts'
import { createLogger, LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './logger.ts'

if (process.argv[2] === 'topology')
  process.exit(await (await import('./topology/cli.ts')).runTopology(process.argv.slice(3)))
if (process.argv[2] === 'fleet')
  process.exit(await (await import('./fleet/cli.ts')).runFleet(process.argv.slice(3)))

const HELP = `Usage: spp-ctl [options]
       spp-ctl topology get|plan|apply [-f FILE] [--url URL]   (spp-ctl topology --help)
       spp-ctl fleet ls|get|plan|apply|serve [--etcd URL]      (spp-ctl fleet --help)

Controller for SPP processes: listens for spp_primary and the secondaries
(spp_nfv, spp_vm, spp_vf, spp_mirror) and serves the REST API.

Options:
  -b, --bind-addr ADDR        address of all three listeners (default ${DEFAULTS.host})
  -p, --pri-port PORT         port spp_primary connects to (default ${DEFAULTS.primaryPort})
  -s, --sec-port PORT         port the secondaries connect to (default ${DEFAULTS.secondaryPort})
  -a, --api-port PORT         REST API port (default ${DEFAULTS.apiPort})
      --command-timeout MS    how long a process may take to answer one command,
                              and a new connection its handshake (default ${DEFAULTS.commandTimeoutMs})
      --max-reply-bytes N     a longer reply drops the connection (default ${DEFAULTS.maxReplyBytes})
      --max-unidentified N    connections allowed in their handshake at once (default ${DEFAULTS.maxUnidentified})
      --nfv-status WORDS      nfv status as the spec says it (spec: Running/Idle) or as SPP's
                              controller passed it on (wire: running/idling) (default spec)
      --max-queue N           commands allowed to wait for one process; more get 503 (default ${DEFAULTS.maxQueue})
      --max-body-bytes N      larger REST request bodies get 413 (default ${DEFAULTS.maxBodyBytes})
      --http-timeout MS       how long a REST client may take to send a request (default ${DEFAULTS.httpRequestTimeoutMs})
      --event-buffer N        events kept for /v1/events clients that reconnect (default ${DEFAULTS.eventBufferSize})
      --max-pending-events N  an event-stream client this far behind is dropped (default ${DEFAULTS.maxPendingEventsPerClient})
      --log-level LEVEL       ${LOG_LEVELS.join(', ')} (default info); on stderr
      --log-format FORMAT     json (one JSON object a line) or pretty (one readable line);
                              default pretty when stderr is a terminal, else json
  -h, --help                  show this text
      --version               show the version
`

const fail = (message: string): never => {
  process.stderr.write(`spp-ctl: ${message}\n\n${HELP}`)
  process.exit(2)
}

function integer(
  flag: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined) return fallback
  const value = /^\d+$/.test(text) ? Number(text) : NaN
  return value >= min && value <= max
    ? value
    : fail(`--${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`)
}

const nfvStatusWords = (text: string | undefined): NfvStatusWords =>
  text === undefined || text === 'spec' || text === 'wire'
    ? (text ?? 'spec')
    : fail(`--nfv-status must be spec or wire, got ${JSON.stringify(text)}`)

const parsed = (() => {
  try {
    return parseArgs({
      options: {
        'bind-addr': { type: 'string', short: 'b' },
        'pri-port': { type: 'string', short: 'p' },
        'sec-port': { type: 'string', short: 's' },
        'api-port': { type: 'string', short: 'a' },
        'command-timeout': { type: 'string' },
        'max-reply-bytes': { type: 'string' },
        'max-unidentified': { type: 'string' },
        'max-queue': { type: 'string' },
        'nfv-status': { type: 'string' },
        'max-body-bytes': { type: 'string' },
        'http-timeout': { type: 'string' },
        'event-buffer': { type: 'string' },
        'max-pending-events': { type: 'string' },
        'log-level': { type: 'string' },
        'log-format': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }).values
  } catch (error) {
    return fail((error as Error).message)
  }
})()

if (parsed.help) {
  process.stdout.write(HELP)
  process.exit(0)
}
if (parsed.version) {
  // package.json is one level up from both src/ (tsx) and dist/ (the build).
  const url = new URL('../package.json', import.meta.url)
  process.stdout.write(
    `${(JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version}\n`,
  )
  process.exit(0)
}
const level = parsed['log-level'] ?? 'info'
if (!(LOG_LEVELS as readonly string[]).includes(level))
  fail(`--log-level must be one of ${LOG_LEVELS.join(', ')}`)
const format = parsed['log-format']
if (format !== undefined && !(LOG_FORMATS as readonly string[]).includes(format))
  fail(`--log-format must be one of ${LOG_FORMATS.join(', ')}`)
const log = await createLogger({
  level: level as LogLevel,
  format: format as LogFormat | undefined,
})
// A crash is one log line (the logger writes what it holds synchronously at exit).
process.on('uncaughtException', (err) => {
  log.fatal({ err }, 'uncaught exception; exiting')
  process.exit(1)
})

const controller = await startController({
  log,
  host: parsed['bind-addr'] ?? DEFAULTS.host,
  primaryPort: integer('pri-port', parsed['pri-port'], DEFAULTS.primaryPort, 0, 65535),
  secondaryPort: integer('sec-port', parsed['sec-port'], DEFAULTS.secondaryPort, 0, 65535),
  apiPort: integer('api-port', parsed['api-port'], DEFAULTS.apiPort, 0, 65535),
  commandTimeoutMs: integer(
    'command-timeout',
    parsed['command-timeout'],
    DEFAULTS.commandTimeoutMs,
    1,
    600_000,
  ),
  maxReplyBytes: integer(
    'max-reply-bytes',
    parsed['max-reply-bytes'],
    DEFAULTS.maxReplyBytes,
    4096,
    1 << 30,
  ),
  maxUnidentified: integer(
    'max-unidentified',
    parsed['max-unidentified'],
    DEFAULTS.maxUnidentified,
    1,
    100_000,
  ),
  maxQueue: integer('max-queue', parsed['max-queue'], DEFAULTS.maxQueue, 1, 100_000),
  nfvStatus: nfvStatusWords(parsed['nfv-status']),
  maxBodyBytes: integer(
    'max-body-bytes',
    parsed['max-body-bytes'],
    DEFAULTS.maxBodyBytes,
    1024,
    1 << 30,
  ),
  httpRequestTimeoutMs: integer(
    'http-timeout',
    parsed['http-timeout'],
    DEFAULTS.httpRequestTimeoutMs,
    1,
    600_000,
  ),
  eventBufferSize: integer(
    'event-buffer',
    parsed['event-buffer'],
    DEFAULTS.eventBufferSize,
    1,
    1_000_000,
  ),
  maxPendingEventsPerClient: integer(
    'max-pending-events',
    parsed['max-pending-events'],
    DEFAULTS.maxPendingEventsPerClient,
    1,
    1_000_000,
  ),
}).catch((error: Error) => {
  // The flags were fine (e.g. a port in use): one line, no usage.
  process.stderr.write(`spp-ctl: cannot start: ${error.message}\n`)
  process.exit(1)
})

// The first signal stops gracefully; a second one exits at once, as killed by it (128 + number).
const SIGNAL_STATUS = { SIGINT: 130, SIGTERM: 143 } as const
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting at once')
      process.exit(SIGNAL_STATUS[signal])
    }
    stopping = true
    log.info({ signal }, 'shutting down')
    void controller.close().then(() => process.exit(0))
  })
}
