// `spp-ctl topology history [REV] [--diff]`, `rollback --to REV` and `confirm`: the revisions of
// what the controller remembers, going back to one, and confirming an apply.
import { stringify } from 'yaml'
import { parseDesired } from '../../topology/document.ts'
import type { ShownPlan } from '../../topology/plan.ts'
import type { TopologyDocument } from '../../topology/read-topology.ts'
import { UsageError } from '../args.ts'
import { columns } from '../columns.ts'
import { showProgress, type Io, type StartApply } from '../progress.ts'
import { describePlan, renderDiff } from './diff.ts'

/** One REST request, as the subcommands send them; a non-2xx answer throws. */
export type Request = <T>(
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ body: T; etag: string }>

/** One revision as GET /v1/topology/history lists it. */
type Revision = {
  rev: number
  time: string
  by: string
  request_id: string
  what: string
  to?: number
  summary: Record<string, number>
}

const UNITS: Record<string, number> = { h: 3600, m: 60, s: 1 }

/** `90s`, `5m`, `1h30m`, or a number of seconds, in seconds; a mistake names `flag`. */
export function parseDuration(text: string, flag = '--confirm-within'): number {
  if (/^\d+$/.test(text)) return Number(text)
  const parts = text.match(/\d+[hms]/g)
  if (!parts || parts.join('') !== text)
    throw new UsageError(`${flag} takes 90s, 5m or 1h30m, got ${text}`)
  return parts.reduce((sum, part) => sum + Number(part.slice(0, -1)) * UNITS[part.at(-1)!]!, 0)
}

const REV = /^[1-9][0-9]{0,14}$/

/** `history`: the revisions as a table; `history REV`: one's document, or the diff to it. */
export async function showHistory(
  io: Io,
  request: Request,
  args: string[],
  { json, diff, limit }: { json?: boolean; diff?: boolean; limit?: string },
): Promise<number> {
  const [rev, ...extra] = args
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
  if (rev === undefined) {
    if (diff) throw new UsageError('--diff needs a revision: history REV --diff')
    const query = limit === undefined ? '' : `?limit=${encodeURIComponent(limit)}`
    const { body } = await request<Revision[]>('GET', `/v1/topology/history${query}`)
    io.stdout.write(json ? `${JSON.stringify(body, null, 2)}\n` : historyTable(body))
    return 0
  }
  if (!REV.test(rev)) throw new UsageError(`a revision is a number from 1, got ${rev}`)
  const { body: document } = await request<object>('GET', `/v1/topology/history/${rev}`)
  if (!diff) {
    io.stdout.write(json ? `${JSON.stringify(document, null, 2)}\n` : stringify(document))
    return 0
  }
  const { body: live } = await request<TopologyDocument>('GET', '/v1/topology')
  const lines = renderDiff(live, parseDesired(document))
  io.stdout.write(
    lines.length === 0
      ? `The live configuration matches revision ${rev}.\n`
      : `From the live configuration to revision ${rev}:\n${lines.map((l) => `  ${l}\n`).join('')}`,
  )
  return 0
}

/** What a revision did, in a few words: `apply`, `rollback to 3`. */
const whatOf = ({ what, to }: Revision) => (to === undefined ? what : `${what} to ${to}`)
const summaryOf = ({ summary }: Revision) =>
  Object.entries(summary)
    .map(([action, n]) => `${n} ${action}`)
    .join(', ') || '-'

/** The revisions, one line each, in columns. */
export function historyTable(revisions: Revision[]): string {
  if (revisions.length === 0) return 'No revisions yet: nothing was remembered since.\n'
  const rows = [
    ['REV', 'TIME', 'BY', 'WHAT', 'SUMMARY'],
    ...revisions.map((r) => [
      String(r.rev),
      r.time.replace(/\.\d+Z$/, 'Z'),
      r.by,
      whatOf(r),
      summaryOf(r),
    ]),
  ]
  return columns(rows)
}

/** Reads one line of the user's answer. */
async function answer(io: Io): Promise<string> {
  let text = ''
  for await (const chunk of io.stdin as AsyncIterable<Buffer | string>) {
    text += chunk.toString()
    if (text.includes('\n')) break
  }
  return text.split('\n')[0]!.trim()
}

/**
 * `rollback --to REV`: the plan from the live configuration to revision REV, then (asked first
 * on a terminal, unless --yes) the rollback, with its progress.
 */
export async function rollback(
  io: Io,
  request: Request,
  { to, yes }: { to?: string; yes?: boolean },
  start: (path: string, body: unknown, etag: string) => StartApply,
): Promise<number> {
  if (to === undefined || !REV.test(to)) throw new UsageError('rollback needs --to REV (a number)')
  const { body: document } = await request<object>('GET', `/v1/topology/history/${to}`)
  const { body: live } = await request<TopologyDocument>('GET', '/v1/topology')
  const planned = await request<ShownPlan>('POST', '/v1/topology/plan', document)
  io.stdout.write(`Rolling back to revision ${to}:\n`)
  io.stdout.write(describePlan(live, parseDesired(document), planned.body))
  if (planned.body.steps.length === 0) return 0
  const terminal = io.stdout.isTTY === true && (io.stdin as { isTTY?: boolean }).isTTY === true
  if (terminal && !yes) {
    io.stdout.write(`Roll back to revision ${to}? Only yes is taken: `)
    if ((await answer(io)) !== 'yes') {
      io.stdout.write('Not rolled back.\n')
      return 1
    }
  }
  return await showProgress(
    io,
    planned.body,
    start('/v1/topology/rollback', { to: Number(to) }, planned.etag),
  )
}

/** `confirm`: the apply waiting for its confirmation stays. */
export async function confirm(io: Io, request: Request): Promise<number> {
  const { body } = await request<{ apply: string }>('POST', '/v1/topology/confirm')
  io.stdout.write(`Confirmed apply ${body.apply}: it stays.\n`)
  return 0
}
