// `spp-ctl topology get|plan|apply|desired|drift|restore`: a client of the controller's REST API
// for whole topologies.
import { readFile } from 'node:fs/promises'
import { parse, stringify } from 'yaml'
import { readArgs, usageText, UsageError } from '../args.ts'
import { connectTo, URL_HELP } from '../controller-client.ts'
import { TOKEN_HELP } from '../token.ts'
import { configurationOf } from '../../topology/configuration.ts'
import { parseDesired, type DesiredDocument } from '../../topology/document.ts'
import { renderDiff } from './diff.ts'
import { showProgress, type Io } from '../progress.ts'
import type { Plan } from '../../topology/plan.ts'
import type { TopologyDocument } from '../../topology/read-topology.ts'
import { openEventStream } from '../sse-client.ts'
import { forget, restore, showDrift } from './remembered.ts'

const COMMAND = 'spp-ctl topology'

const HELP = `Usage: spp-ctl topology get|plan|apply|desired|drift|restore [options]

  get       print the live configuration, a desired document to edit and apply
            (YAML; --json for JSON; --with-status adds counters, lcores and the rest)
  plan      print what a desired document changes, and the steps that would do it
  apply     plan, then run the steps (each process's in order, processes side by side)
  desired   print what the controller remembers of each process (YAML; --json for JSON)
  drift     print, per remembered process, the steps that would bring it back (nothing is sent)
  restore PROCESS|--all
            run those steps for one process (vf:2) or every connected one that drifts

Options:
  -f, --file FILE         the desired document, YAML or JSON; - reads stdin
${URL_HELP}      --json              get, desired, drift: print JSON
      --with-status       get: the whole topology, as GET /v1/topology answers it
      --detailed-exitcode plan, drift: exit 2 when there are changes (0 none, 1 error)
      --forget PROCESS    desired: forget one process (vf:2, nfv:1, mirror:3, primary): it
                          will not be restored
      --all               restore: every connected process that drifts
${TOKEN_HELP}  -h, --help              show this text
`

const OPTIONS = {
  file: { type: 'string', short: 'f' },
  url: { type: 'string' },
  json: { type: 'boolean' },
  'with-status': { type: 'boolean' },
  'detailed-exitcode': { type: 'boolean' },
  forget: { type: 'string' },
  all: { type: 'boolean' },
  'token-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Runs one `spp-ctl topology` command; resolves with the exit status. */
export async function runTopology(args: string[], io: Io = process): Promise<number> {
  try {
    const { values, positionals } = readArgs(args, OPTIONS)
    if (values.help) return write(io, HELP, 0)
    const [command, ...extra] = positionals
    const known = ['get', 'plan', 'apply', 'desired', 'drift', 'restore']
    if (!known.includes(command ?? ''))
      throw new UsageError(
        command === undefined
          ? `expected a command: ${known.join(', ')}`
          : `unknown command ${command}: expected ${known.join(', ')}`,
      )
    if (extra.length > (command === 'restore' ? 1 : 0))
      throw new UsageError(`unexpected argument ${extra.at(-1)}`)
    const client = await connectTo(values, (text) =>
      io.stderr.write(`${COMMAND}: warning: ${text}\n`),
    )
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
    if (command === 'restore') return await restore(io, client, extra[0], values.all === true)
    if (values.file === undefined) throw new UsageError(`${command} needs -f FILE (- for stdin)`)
    const desired = await readDocument(values.file, io)
    const { body: live } = await client.request<TopologyDocument>('GET', '/v1/topology')
    const planned = await client.request<Plan>('POST', '/v1/topology/plan', desired)
    const { steps } = planned.body
    // the controller took the document: parsed here as it parsed it (a primary's running -> Running)
    io.stdout.write(describePlan(live, parseDesired(desired), planned.body))
    if (command === 'plan') return steps.length > 0 && values['detailed-exitcode'] ? 2 : 0
    if (steps.length === 0) return 0
    return await showProgress(io, planned.body, (id, signal) =>
      openEventStream(client, signal).then((events) => ({
        events,
        response: client.fetch('/v1/topology/apply', {
          method: 'POST',
          body: JSON.stringify(desired),
          headers: {
            ...client.headers,
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
    io.stderr.write(
      error instanceof UsageError ? usageText(COMMAND, message) : `${COMMAND}: ${message}\n`,
    )
    return 1
  }
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

/** The diff per process, then the numbered steps and their summary. */
export function describePlan(live: TopologyDocument, desired: DesiredDocument, plan: Plan): string {
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
