// The controller's own command line: flags, start-up, signals and exit statuses.
import { homedir } from 'node:os'
import { parseAllowedPeers } from '../auth/allow-peers.ts'
import { DEFAULTS, startController } from '../controller/controller.ts'
import { fdBudget, openFilesLimit } from '../controller/fd-budget.ts'
import type { FleetSettings } from '../fleet/controller-link.ts'
import { fleetSettings } from '../fleet/flags.ts'
import { resolveGroup } from '../http/api-socket.ts'
import type { NfvStatusWords } from '../http/present.ts'
import {
  createLogger,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogFormat,
  type LogLevel,
} from '../log/logger.ts'
import { readArgs, usageText } from './args.ts'
import { SUBCOMMANDS, usage } from './daemon-help.ts'
import { CLI_OPTIONS } from './daemon-options.ts'
import { DEFAULT_JOURNAL_KEEP_DAYS } from '../store/store.ts'
import { resolveStateDir } from '../store/state-dir.ts'

/** Parses the controller's flags and runs it until a signal stops it (exit statuses as documented). */
export async function runDaemon(version: () => string): Promise<void> {
  // The connection budgets' defaults follow this process's own limit on open files.
  const limit = openFilesLimit()
  const budget = fdBudget(limit ?? 1024)

  const HELP = usage(budget, limit)

  // The reason and where the usage is: 54 lines of it would scroll the reason away.
  const fail = (message: string): never => {
    process.stderr.write(usageText('spp-ctl', message))
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
      const { values, positionals } = readArgs(process.argv.slice(2), CLI_OPTIONS)
      const [word] = positionals
      if (word !== undefined)
        fail(`unknown command ${word}: the commands are ${SUBCOMMANDS.join(', ')}`)
      return values
    } catch (error) {
      return fail((error as Error).message)
    }
  })()

  if (parsed.help) {
    process.stdout.write(HELP)
    process.exit(0)
  }

  if (parsed.version) {
    process.stdout.write(`${version()}\n`)
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

  /** Integer flags: [flag, option, default, min, max]. */
  const INTEGERS = [
    ['pri-port', 'primaryPort', DEFAULTS.primaryPort, 0, 65535],
    ['sec-port', 'secondaryPort', DEFAULTS.secondaryPort, 0, 65535],
    ['api-port', 'apiPort', DEFAULTS.apiPort, 0, 65535],
    ['command-timeout', 'commandTimeoutMs', DEFAULTS.commandTimeoutMs, 1, 600_000],
    ['max-reply-bytes', 'maxReplyBytes', DEFAULTS.maxReplyBytes, 4096, 1 << 30],
    ['max-unidentified', 'maxUnidentified', budget.maxUnidentified, 1, 100_000],
    ['max-queue', 'maxQueue', DEFAULTS.maxQueue, 1, 100_000],
    ['max-body-bytes', 'maxBodyBytes', DEFAULTS.maxBodyBytes, 1024, 1 << 30],
    ['http-timeout', 'httpRequestTimeoutMs', DEFAULTS.httpRequestTimeoutMs, 1, 600_000],
    ['event-buffer', 'eventBufferSize', DEFAULTS.eventBufferSize, 1, 1_000_000],
    ['max-pending-events', 'maxPendingEventsPerClient', DEFAULTS.maxPendingEventsPerClient, 1, 1e6],
    ['status-max-age', 'statusMaxAgeMs', DEFAULTS.statusMaxAgeMs, 0, 3_600_000],
    ['max-api-connections', 'maxApiConnections', budget.maxApiConnections, 1, 1_000_000],
    ['journal-keep', 'journalKeepDays', DEFAULT_JOURNAL_KEEP_DAYS, 1, 36_500],
  ] as const
  const integers = Object.fromEntries(
    INTEGERS.map(([flag, key, fallback, min, max]) => [
      key,
      integer(flag, parsed[flag], fallback, min, max),
    ]),
  ) as Record<(typeof INTEGERS)[number][1], number>

  /** A flag's value as `read` makes it, or exit 2 with the reason. */
  function flag<T>(name: keyof typeof parsed, read: (text: string) => T): T | undefined {
    const text = parsed[name]
    if (typeof text !== 'string') return undefined
    try {
      return read(text)
    } catch (error) {
      return fail(`--${name}: ${(error as Error).message}`)
    }
  }
  const apiSocketGroup = flag('api-socket-group', resolveGroup)
  if (apiSocketGroup !== undefined && !parsed['api-socket'])
    fail('--api-socket-group needs --api-socket')
  let fleet: FleetSettings | undefined
  try {
    fleet = await fleetSettings(parsed, version)
  } catch (error) {
    fail((error as Error).message)
  }
  if (parsed['allow-read-anonymous'] && typeof parsed['auth-file'] !== 'string')
    fail('--allow-read-anonymous needs --auth-file (without it, everything is open)')
  const restore = parsed.restore ?? 'on'
  const restoreMode = (['on', 'report', 'off'] as const).find((mode) => mode === restore)
  if (!restoreMode) fail(`--restore must be on, report or off, got ${JSON.stringify(restore)}`)
  let stateDir: string | undefined
  try {
    stateDir = resolveStateDir(parsed['state-dir'], process.env, homedir())
  } catch (error) {
    fail((error as Error).message)
  }

  const authFile = parsed['auth-file']
  const readClients =
    typeof authFile === 'string' ? (await import('../auth/read-clients.ts')).readClients : undefined
  const controller = await startController({
    log,
    host: parsed['bind-addr'] ?? DEFAULTS.host,
    ...integers,
    nfvStatus: nfvStatusWords(parsed['nfv-status']),
    // Any string, the empty one too: `--auth-file "$UNSET"` must refuse to start, not start open.
    clients: readClients && flag('auth-file', readClients),
    allowReadAnonymous: parsed['allow-read-anonymous'] ?? false,
    apiSocket: flag('api-socket', (path) => ({ path, gid: apiSocketGroup })),
    allowPeers: flag('allow-peers', parseAllowedPeers),
    stateDir,
    restore: restoreMode,
    fleet,
  }).catch((error: Error) => {
    // The flags were fine (e.g. a port in use): one line, no usage.
    process.stderr.write(`spp-ctl: cannot start: ${error.message}\n`)
    process.exit(1)
  })

  // SIGHUP reads the auth file again (systemctl reload): a token removed is refused from then on;
  // and etcd's credentials (a certificate renewed, a password changed). Without either there is
  // nothing to read, and SIGHUP keeps its usual meaning.
  const etcdCredentials = fleet?.credentials !== undefined
  if ((typeof authFile === 'string' && readClients) || etcdCredentials)
    process.on('SIGHUP', () => {
      if (typeof authFile === 'string' && readClients)
        controller.reloadClients(authFile, readClients)
      if (etcdCredentials) void controller.reloadEtcdCredentials()
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
}
