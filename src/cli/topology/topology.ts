// `spp-ctl topology get|plan|apply|desired|history|rollback|confirm`: a client of the controller's
// REST API for whole topologies.
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { parse, stringify } from 'yaml'
import { bearerHeader, TOKEN_HELP } from '../token.ts'
import { configurationOf } from '../../topology/configuration.ts'
import { parseDesired } from '../../topology/document.ts'
import { describePlan } from './diff.ts'
import { showProgress, type Io } from '../progress.ts'
import type { Plan } from '../../topology/plan.ts'
import type { TopologyDocument } from '../../topology/read-topology.ts'
import { openEventStream } from '../sse-client.ts'
import { confirm, parseDuration, rollback, showHistory } from './history.ts'

export { describePlan } from './diff.ts'

const HELP = `Usage: spp-ctl topology get|plan|apply|desired|history|rollback|confirm [options]

  get      print the live configuration, a desired document to edit and apply
           (YAML; --json for JSON; --with-status adds counters, lcores and the rest)
  plan     print what a desired document changes, and the steps that would do it
  apply    plan, then run the steps (each process's in order, processes side by side); a
           failed step undoes the steps done, in reverse, unless --keep-partial
  desired  print what the controller remembers of each process (YAML; --json for JSON)
  history  the revisions of what is remembered, newest first: revision, time, who, what;
           history REV prints the document of revision REV (YAML; --json), or with --diff
           what going back to it would change
  rollback --to REV: plan from the live configuration to revision REV, show it, ask
           (on a terminal, unless --yes), and apply it
  confirm  confirm the apply made with --confirm-within: it stays

Options:
  -f, --file FILE         the desired document, YAML or JSON; - reads stdin
      --url URL           the controller (default http://localhost:7777)
      --json              get, desired, history: print JSON
      --with-status       get: the whole topology, as GET /v1/topology answers it
      --detailed-exitcode plan: exit 2 when there are changes (0 none, 1 error)
      --forget PROCESS    desired: forget one process (vfs/2, nfvs/1, mirrors/3): it will
                          not be restored
      --keep-partial      apply, rollback: when a step fails, leave the steps done as they are
      --confirm-within D  apply, rollback: undo it by itself unless \`topology confirm\` comes
                          within D (90s, 5m, 1h30m; a number alone is seconds)
      --to REV            rollback: the revision to go back to
      --yes               rollback: do not ask first
      --diff              history REV: the changes from the live configuration to it
      --limit N           history: at most N revisions (default 20)
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
        'keep-partial': { type: 'boolean' },
        'confirm-within': { type: 'string' },
        to: { type: 'string' },
        yes: { type: 'boolean' },
        diff: { type: 'boolean' },
        limit: { type: 'string' },
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
    if (command === 'history') return await showHistory(io, request, extra, values)
    if (extra.length > 0) throw new CliError(`unexpected argument ${extra[0]}`)
    if (command === 'get') {
      const { body: live } = await request<TopologyDocument>('GET', '/v1/topology')
      const body = values['with-status'] ? live : configurationOf(live)
      return write(io, values.json ? `${JSON.stringify(body, null, 2)}\n` : stringify(body), 0)
    }
    if (command === 'desired') return await showDesired(io, request, values)
    if (command === 'confirm') return await confirm(io, request)
    // How an apply (and a rollback) goes: its query.
    const query = new URLSearchParams()
    if (values['keep-partial']) query.set('keep_partial', 'true')
    if (values['confirm-within'] !== undefined)
      query.set('confirm_within', String(parseDuration(values['confirm-within'])))
    const apply =
      (path: string, body: unknown, etag: string) => (id: string, signal: AbortSignal) =>
        openEventStream(url, signal, auth).then((events) => ({
          events,
          response: fetch(`${url}${path}${query.size ? `?${query}` : ''}`, {
            method: 'POST',
            body: JSON.stringify(body),
            headers: {
              ...auth,
              'Content-Type': 'application/json',
              'If-Match': etag,
              'X-Request-Id': id,
            },
            signal,
          }),
        }))
    if (command === 'rollback') return await rollback(io, request, values, apply)
    if (command !== 'plan' && command !== 'apply')
      throw new CliError(
        `expected get, plan, apply, desired, history, rollback or confirm, got ${command ?? 'nothing'}`,
      )
    if (values.file === undefined) throw new CliError(`${command} needs -f FILE (- for stdin)`)
    const desired = await readDocument(values.file, io)
    const { body: live } = await request<TopologyDocument>('GET', '/v1/topology')
    const planned = await request<Plan>('POST', '/v1/topology/plan', desired)
    const { steps } = planned.body
    // the controller took the document: parsed here as it parsed it (a primary's running -> Running)
    io.stdout.write(describePlan(live, parseDesired(desired), planned.body))
    if (command === 'plan') return steps.length > 0 && values['detailed-exitcode'] ? 2 : 0
    if (steps.length === 0) return 0
    return await showProgress(io, planned.body, apply('/v1/topology/apply', desired, planned.etag))
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
