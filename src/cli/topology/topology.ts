// `spp-ctl topology get|plan|apply|desired`: a client of the controller's REST API for whole topologies.
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { parse, stringify } from 'yaml'
import { bearerHeader, TOKEN_HELP } from '../token.ts'
import { configurationOf } from '../../topology/configuration.ts'
import { parseDesired, type DesiredDocument } from '../../topology/document.ts'
import { renderDiff } from './diff.ts'
import { showProgress, type Io } from '../progress.ts'
import type { ShownPlan } from '../../topology/plan.ts'
import type { TopologyDocument } from '../../topology/read-topology.ts'
import { openEventStream } from '../sse-client.ts'

const HELP = `Usage: spp-ctl topology get|plan|apply|desired [options]

  get     print the live configuration, a desired document to edit and apply
          (YAML; --json for JSON; --with-status adds counters, lcores and the rest)
  plan    print what a desired document changes, and the steps that would do it
  apply   plan, then run the steps (each process's in order, processes side by side)
  desired print what the controller remembers of each process (YAML; --json for JSON)

Options:
  -f, --file FILE         the desired document, YAML or JSON; - reads stdin
      --url URL           the controller (default http://localhost:7777)
      --json              get: print JSON
      --with-status       get: the whole topology, as GET /v1/topology answers it
      --detailed-exitcode plan: exit 2 when there are changes (0 none, 1 error)
      --forget PROCESS    desired: forget one process (vfs/2, nfvs/1, mirrors/3): it will
                          not be restored
${TOKEN_HELP}  -h, --help              show this text
`

class CliError extends Error {}

/** Runs one `spp-ctl topology` command; resolves with the exit status. */
export async function runTopology(args: string[], io: Io = process): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        file: { type: 'string', short: 'f' },
        url: { type: 'string', default: 'http://localhost:7777' },
        json: { type: 'boolean' },
        'with-status': { type: 'boolean' },
        'detailed-exitcode': { type: 'boolean' },
        forget: { type: 'string' },
        'token-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    if (values.help) return write(io, HELP, 0)
    const url = values.url.replace(/\/+$/, '')
    const auth = await bearerHeader(values['token-file'])
    const request = <T>(method: string, path: string, body?: unknown) =>
      send<T>(url, auth, method, path, body)
    const [command, ...extra] = positionals
    if (extra.length > 0) throw new CliError(`unexpected argument ${extra[0]}`)
    if (command === 'get') {
      const { body: live } = await request<TopologyDocument>('GET', '/v1/topology')
      const body = values['with-status'] ? live : configurationOf(live)
      return write(io, values.json ? `${JSON.stringify(body, null, 2)}\n` : stringify(body), 0)
    }
    if (command === 'desired') return await showDesired(io, request, values)
    if (command !== 'plan' && command !== 'apply')
      throw new CliError(`expected get, plan, apply or desired, got ${command ?? 'nothing'}`)
    if (values.file === undefined) throw new CliError(`${command} needs -f FILE (- for stdin)`)
    const desired = await readDocument(values.file, io)
    const { body: live } = await request<TopologyDocument>('GET', '/v1/topology')
    const planned = await request<ShownPlan>('POST', '/v1/topology/plan', desired)
    const { steps } = planned.body
    // the controller took the document: parsed here as it parsed it (a primary's running -> Running)
    io.stdout.write(describePlan(live, parseDesired(desired), planned.body))
    if (command === 'plan') return steps.length > 0 && values['detailed-exitcode'] ? 2 : 0
    if (steps.length === 0) return 0
    return await showProgress(io, planned.body, (id, signal) =>
      openEventStream(url, signal, auth).then((events) => ({
        events,
        response: fetch(`${url}/v1/topology/apply`, {
          method: 'POST',
          body: JSON.stringify(desired),
          headers: {
            ...auth,
            'Content-Type': 'application/json',
            'If-Match': planned.etag,
            'X-Request-Id': id,
          },
          signal,
        }),
      })),
    )
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    io.stderr.write(`spp-ctl topology: ${message}\n`)
    return 1
  }
}

const FORGET = /^(?:nfvs|vfs|mirrors)\/(?:0|[1-9][0-9]{0,9})$/

/** `desired`: the remembered document, or `--forget` one process of it. */
async function showDesired(
  io: Io,
  request: (method: string, path: string) => Promise<{ body: unknown }>,
  { forget, json }: { forget?: string; json?: boolean },
) {
  if (forget === undefined) {
    const { body } = await request('GET', '/v1/topology/desired')
    return write(io, json ? `${JSON.stringify(body, null, 2)}\n` : stringify(body), 0)
  }
  if (!FORGET.test(forget))
    throw new CliError(`--forget takes vfs/2, nfvs/1 or mirrors/3, got ${forget}`)
  await request('DELETE', `/v1/topology/desired/${forget}`)
  return write(io, `Forgot ${forget}: it will not be restored.\n`, 0)
}

const write = (io: Io, text: string, status: number) => {
  io.stdout.write(text)
  return status
}

/** Reads a YAML or JSON document from FILE, or stdin for `-`. */
export async function readDocument(file: string, io: Io): Promise<unknown> {
  let text: string
  if (file === '-') {
    const chunks: Buffer[] = []
    for await (const chunk of io.stdin as AsyncIterable<Buffer>) chunks.push(chunk)
    text = Buffer.concat(chunks).toString('utf8')
  } else {
    text = await readFile(file, 'utf8').catch((e: Error) => {
      throw new CliError(`cannot read ${file}: ${e.message}`)
    })
  }
  try {
    return parse(text) as unknown // YAML is a superset of JSON
  } catch (error) {
    throw new CliError(
      `${file === '-' ? 'stdin' : file} is not YAML or JSON: ${(error as Error).message}`,
    )
  }
}

/** One REST request; a non-2xx answer (a refused token too) is an error with the controller's text. */
async function send<T>(
  url: string,
  auth: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(url + path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? auth : { ...auth, 'Content-Type': 'application/json' },
  }).catch((error: Error) => {
    const cause = (error.cause as Error | undefined)?.message ?? error.message
    throw new CliError(`cannot reach the controller at ${url}: ${cause}`)
  })
  const text = await response.text()
  if (!response.ok) throw new CliError(`${method} ${path}: ${response.status}: ${text.trim()}`)
  return {
    body: (text === '' ? undefined : JSON.parse(text)) as T,
    etag: response.headers.get('etag') ?? '*',
  }
}

/** The diff per process, then the numbered steps and their summary. */
export function describePlan(
  live: TopologyDocument,
  desired: DesiredDocument,
  plan: ShownPlan,
): string {
  if (plan.steps.length === 0) return 'No changes: the live topology already matches.\n'
  const lines = ['Changes:', ...renderDiff(live, desired).map((line) => `  ${line}`), '']
  lines.push(`Steps (${plan.steps.length}):`)
  const width = String(plan.steps.length).length
  plan.steps.forEach((step, i) => {
    lines.push(`  ${String(i + 1).padStart(width)}. ${step.why}`)
    const body = step.body === undefined ? '' : ` ${JSON.stringify(step.body)}`
    lines.push(`  ${' '.repeat(width)}  ${step.method} ${step.path}${body}`)
  })
  const counts = Object.entries(plan.summary).map(([action, n]) => `${n} ${action}`)
  lines.push('', `Summary: ${counts.join(', ')}`, '')
  return lines.join('\n')
}
