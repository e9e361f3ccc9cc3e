// `spp-ctl fleet ls|get|plan|apply|serve`: every host's SPP from etcd, and the fleet page.
import { once } from 'node:events'
import { stringify } from 'yaml'
import { readArgs, usageText, UsageError } from '../args.ts'
import { columns } from '../columns.ts'
import type { Io } from '../progress.ts'
import { parseEndpoints, text } from '../../fleet/etcd-client.ts'
import {
  accessFrom,
  connectEtcd,
  credentialsOf,
  EtcdCallError,
  failureLine,
  lineOfError,
} from './etcd-connect.ts'
import { readFleet, type HostRow } from './fleet-state.ts'
import { decodeDesired, DEFAULT_PREFIX, fleetKeys, type FleetKeys } from '../../fleet/keys.ts'
import { FleetError, planOrApply } from './plan-apply.ts'
import { startFleetServer } from './serve.ts'

/** The environment variable etcd's URLs may come from; --etcd wins over it. */
export const ETCD_ENV = 'SPP_CTL_ETCD'
const DEFAULT_ETCD = 'http://127.0.0.1:2379'

const HELP = `Usage: spp-ctl fleet ls|get|plan|apply|serve [options]

  ls                   every host, alive or not: eras, processes, drift, last update
  get HOST             HOST's desired document (YAML; --json for JSON)
  plan HOST -f FILE    the diff and steps from HOST's observed state to FILE
  apply HOST -f FILE   plan, write HOST's desired key, follow HOST until it converges
  apply --all -f FILE  the same for every alive host, one progress line per host
  serve                the fleet page, live from etcd (SIGHUP reads the credentials again)

Options:
      --etcd URL[,URL...]  etcd's client URLs (default $SPP_CTL_ETCD, else ${DEFAULT_ETCD})
      --etcd-prefix P      where the fleet's keys are (default ${DEFAULT_PREFIX})
      --etcd-ca FILE       with https:// URLs: the CA of etcd's certificate
                           (default $SPP_CTL_ETCD_CA, else $ETCDCTL_CACERT, else the system's)
      --etcd-cert FILE     a client certificate, where etcd asks for one
                           (default $SPP_CTL_ETCD_CERT, else $ETCDCTL_CERT)
      --etcd-key FILE      its key (default $SPP_CTL_ETCD_KEY, else $ETCDCTL_KEY)
      --etcd-user NAME     an etcd user (default $SPP_CTL_ETCD_USER) whose password is read
      --etcd-password-file FILE
                           from FILE (default $SPP_CTL_ETCD_PASSWORD_FILE), never from the
                           command line
  -f, --file FILE          the desired document, YAML or JSON; - reads stdin
      --all                apply: every alive host
      --json               ls, get: print JSON
      --detailed-exitcode  plan, apply: exit 2 when there were changes
      --timeout S          apply: how long to wait for convergence (default 60)
      --port PORT          serve: the page's port (default 7700)
      --bind ADDR          serve: the page's address (default 127.0.0.1)
  -h, --help               show this text

Exit status: 0 done; 1 an error, or a host refused a step (named); 2 there were changes
(--detailed-exitcode); 3 conflict: a host's desired key changed since it was read.
`

const COMMAND = 'spp-ctl fleet'
const OPTIONS = {
  etcd: { type: 'string' },
  'etcd-prefix': { type: 'string', default: DEFAULT_PREFIX },
  'etcd-ca': { type: 'string' },
  'etcd-cert': { type: 'string' },
  'etcd-key': { type: 'string' },
  'etcd-user': { type: 'string' },
  'etcd-password-file': { type: 'string' },
  file: { type: 'string', short: 'f' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  'detailed-exitcode': { type: 'boolean' },
  timeout: { type: 'string', default: '60' },
  port: { type: 'string', default: '7700' },
  bind: { type: 'string', default: '127.0.0.1' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Runs one `spp-ctl fleet` command; resolves with the exit status (serve: on SIGINT/SIGTERM). */
export async function runFleet(
  args: string[],
  io: Io = process,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let etcdUrls = ''
  let endpoints: string[] = []
  let credentials: Awaited<ReturnType<typeof credentialsOf>>
  try {
    const { values, positionals } = readArgs(args, OPTIONS)
    if (values.help) return write(io, HELP, 0)
    // --etcd, else the environment's (set once for a shell), else etcd's own default.
    const fromEnv = env[ETCD_ENV]?.trim() || undefined
    const etcd = values.etcd ?? fromEnv ?? DEFAULT_ETCD
    try {
      endpoints = parseEndpoints(etcd)
    } catch (error) {
      const from = values.etcd === undefined && fromEnv ? `$${ETCD_ENV}` : '--etcd'
      throw new UsageError(`${from}: ${(error as Error).message}`)
    }
    etcdUrls = endpoints.join(',')
    if (values.etcd === undefined && fromEnv) etcdUrls += ` (from $${ETCD_ENV})`
    let access
    try {
      access = accessFrom(values, env, endpoints)
    } catch (error) {
      throw new UsageError((error as Error).message)
    }
    credentials = await credentialsOf(access)
    const keys = fleetKeys(values['etcd-prefix'])
    const [command, ...rest] = positionals
    if (command === 'serve') {
      const port = Number(values.port)
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new FleetError(`--port must be 0 to 65535, got ${values.port}`)
      const server = await startFleetServer({
        ...{ endpoints, keys, host: values.bind, port, credentials },
      })
      io.stdout.write(`Fleet page: http://${values.bind}:${server.port}/\n`)
      // SIGHUP: the credential files read again (a renewed certificate), as the controller does.
      const reload = () =>
        void credentialsOf(access).then(
          (next) => server.reload(next),
          (error: Error) =>
            io.stderr.write(`${COMMAND}: credentials not read again: ${error.message}\n`),
        )
      if (credentials) process.on('SIGHUP', reload)
      await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')])
      process.off('SIGHUP', reload)
      await server.close()
      return 0
    }
    const connected = await connectEtcd(endpoints, credentials)
    if ('failure' in connected)
      throw new FleetError(failureLine(connected.failure, etcdUrls) ?? connected.failure.reason)
    const { client } = connected
    try {
      if (command === 'ls') return write(io, await list(client, keys, values.json), 0)
      if (command === 'get') return write(io, await get(client, keys, rest, values.json), 0)
      if (command === 'plan' || command === 'apply') {
        const timeout = Number(values.timeout)
        if (!(timeout > 0)) throw new FleetError(`--timeout must be seconds, got ${values.timeout}`)
        return await planOrApply(client, keys, io, {
          command,
          hosts: rest,
          all: values.all === true,
          file: values.file,
          detailed: values['detailed-exitcode'] === true,
          timeoutMs: timeout * 1000,
        })
      }
      throw new UsageError(
        command === undefined
          ? 'expected a command: ls, get, plan, apply or serve'
          : `unknown command ${command}: expected ls, get, plan, apply or serve`,
      )
    } finally {
      client.close()
    }
  } catch (error) {
    let message = error instanceof Error ? error.message : String(error)
    // etcd's refusal (TLS, authentication, a permission) or absence, in one line with its URLs.
    const call = error instanceof EtcdCallError ? error : undefined
    const etcdLine = lineOfError(call?.cause ?? error, endpoints, credentials, etcdUrls, call?.what)
    if (etcdLine) message = etcdLine
    io.stderr.write(
      error instanceof UsageError ? usageText(COMMAND, message) : `${COMMAND}: ${message}\n`,
    )
    return error instanceof FleetError ? error.status : 1
  }
}

const write = (io: Io, text: string, status: number) => {
  io.stdout.write(text)
  return status
}

async function list(client: Parameters<typeof readFleet>[0], keys: FleetKeys, json?: boolean) {
  const rows = (await readFleet(client, keys)).state.rows()
  if (json) {
    const out = rows.map(({ host, alive, url, processes, drift, eras, updated }) => ({
      ...{ host, alive, url, processes, drift, eras, updated },
    }))
    return `${JSON.stringify(out, null, 2)}\n`
  }
  if (rows.length === 0) return `No hosts under ${keys.hosts}\n`
  const table = [
    ['HOST', 'STATE', 'ERAS', 'PROCESSES', 'DRIFT', 'UPDATED', 'URL'],
    ...rows.map((row: HostRow) => [
      row.host,
      row.alive ? 'alive' : 'unreachable',
      row.eras.join(',') || '-',
      row.processes.join(' ') || '-',
      row.drift === null ? '-' : String(row.drift),
      row.updated ?? '-',
      row.url ?? '-',
    ]),
  ]
  return columns(table)
}

async function get(
  client: Parameters<typeof readFleet>[0],
  keys: FleetKeys,
  hosts: string[],
  json?: boolean,
) {
  const [host, ...extra] = hosts
  if (host === undefined || extra.length > 0) throw new FleetError('get needs one HOST')
  const [kv] = (await client.get(keys.desired(host)).exec()).kvs
  if (!kv) throw new FleetError(`no desired document for ${host} (${keys.desired(host)})`)
  const decoded = decodeDesired(text(kv))
  if (!decoded.ok)
    throw new FleetError(`${keys.desired(host)} is not a desired document: ${decoded.error}`)
  const stored = JSON.parse(text(kv)) as unknown // as written, without the schema's defaults
  return json ? `${JSON.stringify(stored, null, 2)}\n` : stringify(stored)
}
