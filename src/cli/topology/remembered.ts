// `spp-ctl topology desired --forget`, `drift` and `restore`: what the controller remembers, how far
// the processes are from it, and bringing them back (with apply's progress display).
import { ID_SYNTAX, idText, parseId, type ProcessId } from '../../protocol/process-id.ts'
import type { Shown, ShownPlan } from '../../topology/plan.ts'
import { UsageError } from '../args.ts'
import { ClientError, type ControllerClient } from '../controller-client.ts'
import { showProgress, type Io } from '../progress.ts'
import { openEventStream } from '../sse-client.ts'

type Report = ShownPlan | { refused: Refusal }
type Refusal = { field: string; reason: string }
type DriftDocument = {
  primary?: Report
  nfvs: Record<string, Report>
  vfs: Record<string, Report>
  mirrors: Record<string, Report>
}

/** The process a command line names (`vf:2`; `vfs/2` too), or a usage error naming the text. */
function processOf(text: string, what: string): ProcessId {
  const id = parseId(text)
  if (!id) throw new UsageError(`${what} takes ${ID_SYNTAX}, got ${JSON.stringify(text)}`)
  return id
}

const print = (io: Io, text: string, status: number) => {
  io.stdout.write(text)
  return status
}

type Sections<T> = {
  primary?: T
  nfvs?: Record<string, T>
  vfs?: Record<string, T>
  mirrors?: Record<string, T>
}
const KINDS = { nfvs: 'nfv', vfs: 'vf', mirrors: 'mirror' } as const

/** A document's processes by name (`vf:2`): the primary first, then as the document lists them. */
function byName<T>(document: Sections<T>): Map<string, T> {
  const out = new Map<string, T>()
  if (document.primary !== undefined) out.set('primary', document.primary)
  for (const [section, kind] of Object.entries(KINDS) as [keyof typeof KINDS, string][])
    for (const [id, value] of Object.entries(document[section] ?? {}))
      out.set(`${kind}:${id}`, value)
  return out
}

/** Every remembered process's drift report, by name. */
async function driftReports(client: ControllerClient) {
  const { body } = await client.request<DriftDocument>('GET', '/v1/topology/drift')
  return { body, reports: byName(body) }
}

const drifts = (report: Report) => 'refused' in report || report.steps.length > 0
const refusalText = ({ field, reason }: Refusal) => `refused key(${field}): ${reason}`

/**
 * `desired --forget PROCESS`: forgets it, so that it is not restored. Forgetting what is not
 * remembered changes nothing, and says so (exit 0): the wanted state already holds.
 */
export async function forget(io: Io, client: ControllerClient, text: string) {
  const name = idText(processOf(text, '--forget'))
  const { body } = await client.request<Sections<unknown>>('GET', '/v1/topology/desired')
  const remembered = byName(body).has(name)
  const none = `${name} is not remembered: nothing to forget.\n`
  if (!remembered) return print(io, none, 0)
  const response = await client.fetch(`/v1/topology/desired/${name}`, {
    method: 'DELETE',
    headers: client.headers,
  })
  // 404: forgotten by someone else since the read (that memory was there: the read answered).
  if (response.status === 404) return print(io, none, 0)
  const said = await response.text()
  if (!response.ok)
    throw new ClientError(`DELETE /v1/topology/desired/${name}: ${client.refusal(response, said)}`)
  return print(io, `Forgot ${name}: it will not be restored.\n`, 0)
}

/** `drift`: per remembered process, in sync, the steps that would restore it, or why it cannot be. */
export async function showDrift(
  io: Io,
  client: ControllerClient,
  options: { json?: boolean; 'detailed-exitcode'?: boolean },
) {
  const { body, reports } = await driftReports(client)
  const drifting = [...reports.values()].some(drifts)
  const status = drifting && options['detailed-exitcode'] ? 2 : 0
  if (options.json) return print(io, `${JSON.stringify(body, null, 2)}\n`, status)
  if (reports.size === 0) return print(io, 'Nothing is remembered.\n', status)
  const lines: string[] = []
  for (const [name, report] of reports) {
    if ('refused' in report) {
      lines.push(`${name}: cannot be restored: ${refusalText(report.refused)}`)
      continue
    }
    const { steps } = report
    if (steps.length === 0) {
      lines.push(`${name}: in sync`)
      continue
    }
    lines.push(`${name}: ${steps.length} ${steps.length === 1 ? 'step' : 'steps'} to restore`)
    const width = String(steps.length).length
    steps.forEach((step, i) => {
      const body = step.body === undefined ? '' : ` ${JSON.stringify(step.body)}`
      lines.push(`  ${String(i + 1).padStart(width)}. ${step.why}`)
      lines.push(`  ${' '.repeat(width)}  ${step.method} ${step.path}${body}`)
    })
  }
  if (drifting) lines.push('', 'Restore with: spp-ctl topology restore PROCESS (or --all)')
  return print(io, `${lines.join('\n')}\n`, status)
}

/**
 * `restore PROCESS` or `restore --all`: POST /v1/topology/restore, each step shown as it ends.
 * A process the planner refuses is named, and the exit status is 1.
 */
export async function restore(
  io: Io,
  client: ControllerClient,
  text: string | undefined,
  all: boolean,
) {
  if (all === (text !== undefined))
    throw new UsageError(
      all ? 'restore takes PROCESS or --all, not both' : `restore needs ${ID_SYNTAX}, or --all`,
    )
  const name = text === undefined ? undefined : idText(processOf(text, 'restore'))
  const { reports } = await driftReports(client)
  const chosen =
    name === undefined
      ? [...reports].filter(([, r]) => drifts(r))
      : [[name, reports.get(name)] as const]
  const steps: Shown[] = []
  let refused = 0
  for (const [one, report] of chosen) {
    if (!report) throw new ClientError(`nothing is remembered for ${one}`)
    if ('refused' in report) {
      io.stderr.write(`${one} cannot be restored: ${refusalText(report.refused)}\n`)
      refused++
    } else steps.push(...report.steps)
  }
  if (steps.length === 0) {
    if (refused > 0) return 1
    return print(
      io,
      name === undefined
        ? 'Nothing to restore: every remembered process matches.\n'
        : `${name} matches what is remembered: nothing to restore.\n`,
      0,
    )
  }
  const plan: ShownPlan = { steps, summary: {} }
  const status = await showProgress(
    io,
    plan,
    (id, signal) =>
      openEventStream(client, signal).then((events) => ({
        events,
        response: client.fetch('/v1/topology/restore', {
          method: 'POST',
          body: JSON.stringify(name === undefined ? {} : { process: name }),
          headers: { ...client.headers, 'Content-Type': 'application/json', 'X-Request-Id': id },
          signal,
        }),
      })),
    'spp-ctl topology',
    'restore',
  )
  return refused > 0 ? 1 : status
}
