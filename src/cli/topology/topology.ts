// `spp-ctl topology get|plan|apply|desired|drift|restore|history|rollback|confirm|trace|check`: a
// client of the controller's REST API for whole topologies and the paths packets take.
import { readFile } from 'node:fs/promises'
import { parse, stringify } from 'yaml'
import { CLIENT_OPTIONS, readArgs, usageText, UsageError } from '../args.ts'
import { connectTo, URL_HELP } from '../controller-client.ts'
import { TOKEN_HELP } from '../token.ts'
import { configurationOf } from '../../topology/configuration.ts'
import { parseDesired } from '../../topology/document.ts'
import { describePlan } from './diff.ts'
import { showProgress, type Io, type StartApply } from '../progress.ts'
import type { ShownPlan } from '../../topology/plan.ts'
import type { TopologyDocument } from '../../topology/read-topology.ts'
import { openEventStream } from '../sse-client.ts'
import { confirm, parseDuration, rollback, showHistory, type Request } from './history.ts'
import { forget, restore, showDrift } from './remembered.ts'
import { check } from './check.ts'
import { trace } from './trace.ts'

export { describePlan } from './diff.ts'

const COMMAND = 'spp-ctl topology'
/** How far apart the two reads of the counters that trace and check take rates over may be. */
const DEFAULT_WINDOW_S = 2

const HELP = `Usage: spp-ctl topology COMMAND [options]

  get       print the live configuration, a desired document to edit and apply
            (YAML; --json for JSON; --with-status adds counters, lcores and the rest)
  plan      print what a desired document changes, and the steps that would do it
  apply     plan, then run the steps (each process's in order, processes side by side); a
            failed step undoes the steps done, in reverse, unless --keep-partial
  desired   print what the controller remembers of each process (YAML; --json for JSON)
  drift     print, per remembered process, the steps that would bring it back (nothing is sent)
  restore PROCESS|--all
            run those steps for one process (vf:2) or every connected one that drifts
  history   the revisions of what is remembered, newest first: revision, time, who, what;
            history REV prints the document of revision REV (YAML; --json), or with --diff
            what going back to it would change
  rollback  --to REV: plan from the live configuration to revision REV, show it, ask
            (on a terminal, unless --yes), and apply it
  confirm   confirm the apply made with --confirm-within: it stays
  trace [PORT]
            the trees packets follow from each port where they enter (or from PORT):
            each hop's mover, state, rates (offered, delivered, dropped a second) and verdict
  check     one line per hop where something is wrong (where, what, why, what to do);
            exit 0 when nothing is, 2 when something is, 1 when it could not tell

Options:
  -f, --file FILE         the desired document, YAML or JSON; - reads stdin
${URL_HELP}      --json              get, desired, drift, history, trace, check: print JSON
      --with-status       get: the whole topology, as GET /v1/topology answers it
      --detailed-exitcode plan, drift: exit 2 when there are changes (0 none, 1 error)
      --forget PROCESS    desired: forget one process (vf:2, nfv:1, mirror:3, primary): it
                          will not be restored
      --all               restore: every connected process that drifts
      --keep-partial      apply, rollback: when a step fails, leave the steps done as they are
      --confirm-within D  apply, rollback: undo it by itself unless \`topology confirm\` comes
                          within D (90s, 5m, 1h30m; a number alone is seconds)
      --to REV            rollback: the revision to go back to
      --yes               rollback: do not ask first
      --diff              history REV: the changes from the live configuration to it
      --limit N           history: at most N revisions (default 20)
      --window D          trace, check: rates over two reads of the counters at most D apart
                          (2s, 1m; a number alone is seconds; default 2s); without such
                          rates the controller's counters are read, D waited, and read again;
                          0 takes what the controller has and never waits
${TOKEN_HELP}  -h, --help              show this text
`

const OPTIONS = {
  file: { type: 'string', short: 'f' },
  json: { type: 'boolean' },
  'with-status': { type: 'boolean' },
  'detailed-exitcode': { type: 'boolean' },
  forget: { type: 'string' },
  all: { type: 'boolean' },
  'keep-partial': { type: 'boolean' },
  'confirm-within': { type: 'string' },
  to: { type: 'string' },
  yes: { type: 'boolean' },
  diff: { type: 'boolean' },
  limit: { type: 'string' },
  window: { type: 'string' },
  ...CLIENT_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const

/** Runs one `spp-ctl topology` command; resolves with the exit status. */
export async function runTopology(args: string[], io: Io = process): Promise<number> {
  try {
    const { values, positionals } = readArgs(args, OPTIONS)
    if (values.help) return write(io, HELP, 0)
    const [command, ...extra] = positionals
    const known = [
      'get',
      'plan',
      'apply',
      'desired',
      'drift',
      'restore',
      'history',
      'rollback',
      'confirm',
      'trace',
      'check',
    ]
    if (!known.includes(command ?? ''))
      throw new UsageError(
        command === undefined
          ? `expected a command: ${known.join(', ')}`
          : `unknown command ${command}: expected ${known.join(', ')}`,
      )
    if (extra.length > (['restore', 'history', 'trace'].includes(command!) ? 1 : 0))
      throw new UsageError(
        `unexpected argument ${extra.at(-1)}${didYouMean(command!, extra, values)}`,
      )
    const windowS =
      values.window === undefined ? DEFAULT_WINDOW_S : parseDuration(values.window, '--window')
    const client = await connectTo(values, {
      say: (line) => io.stderr.write(`${line}\n`),
      warn: (text) => io.stderr.write(`${COMMAND}: warning: ${text}\n`),
    })
    if (command === 'get') {
      const { body: live } = await client.request<TopologyDocument>('GET', '/v1/topology')
      const body = values['with-status'] ? live : configurationOf(live)
      return write(io, values.json ? `${JSON.stringify(body, null, 2)}\n` : stringify(body), 0)
    }
    if (command === 'desired') {
      if (values.forget !== undefined) return await forget(io, client, values.forget)
      const { body } = await client.request('GET', '/v1/topology/desired')
      return write(io, values.json ? `${JSON.stringify(body, null, 2)}\n` : stringify(body), 0)
    }
    if (command === 'drift') return await showDrift(io, client, values)
    if (command === 'trace') return await trace(io, client, extra[0], { ...values, windowS })
    if (command === 'check') return await check(io, client, { ...values, windowS }, COMMAND)
    if (command === 'restore') return await restore(io, client, extra[0], values.all === true)
    const request: Request = (method, path, body) => client.request(method, path, body)
    if (command === 'history') return await showHistory(io, request, extra, values)
    if (command === 'confirm') return await confirm(io, request)
    // How an apply (and a rollback) goes: its query.
    const query = new URLSearchParams()
    if (values['keep-partial']) query.set('keep_partial', 'true')
    if (values['confirm-within'] !== undefined)
      query.set('confirm_within', String(parseDuration(values['confirm-within'])))
    const start =
      (path: string, body: unknown, etag: string): StartApply =>
      (id, signal) =>
        openEventStream(client, signal).then((events) => ({
          events,
          response: client.fetch(`${path}${query.size ? `?${query}` : ''}`, {
            method: 'POST',
            body: JSON.stringify(body),
            headers: {
              ...client.headers,
              'Content-Type': 'application/json',
              'If-Match': etag,
              'X-Request-Id': id,
            },
            signal,
          }),
        }))
    if (command === 'rollback') return await rollback(io, request, values, start)
    if (values.file === undefined) throw new UsageError(`${command} needs -f FILE (- for stdin)`)
    const desired = await readDocument(values.file, io)
    const { body: live } = await client.request<TopologyDocument>('GET', '/v1/topology')
    const planned = await client.request<ShownPlan>('POST', '/v1/topology/plan', desired)
    const { steps } = planned.body
    // the controller took the document: parsed here as it parsed it (a primary's running -> Running)
    io.stdout.write(describePlan(live, parseDesired(desired), planned.body))
    if (command === 'plan') return steps.length > 0 && values['detailed-exitcode'] ? 2 : 0
    if (steps.length === 0) return 0
    return await showProgress(io, planned.body, start('/v1/topology/apply', desired, planned.etag))
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    io.stderr.write(
      error instanceof UsageError ? usageText(COMMAND, message) : `${COMMAND}: ${message}\n`,
    )
    return 1
  }
}

/** What an argument given alone most likely meant: the document's file, a rollback's revision. */
function didYouMean(command: string, extra: string[], values: { file?: string; to?: string }) {
  const [word] = extra
  if (extra.length !== 1) return ''
  if ((command === 'plan' || command === 'apply') && values.file === undefined)
    return `: did you mean -f ${word}?`
  if (command === 'rollback' && values.to === undefined) return `: did you mean --to ${word}?`
  return ''
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
      throw new Error(`cannot read ${file}: ${e.message}`)
    })
  }
  const name = file === '-' ? 'stdin' : file
  let document: unknown
  try {
    document = parse(text) as unknown // YAML is a superset of JSON
  } catch (error) {
    throw new Error(`${name} is not YAML or JSON: ${(error as Error).message}`)
  }
  // An empty file (or one of comments only) is no document: say so, not what the API would.
  if (document === null || document === undefined)
    throw new Error(
      `${name} is empty: a desired document names processes, as \`spp-ctl topology get\` prints`,
    )
  return document
}
