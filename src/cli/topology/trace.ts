// `spp-ctl topology trace [PORT]`: the trees packets follow, from each port where they enter (or
// from PORT), each hop with its mover, state, rates and verdict.
import { deviceOf } from '../../topology/movers.ts'
import type { Hop, Path, PathsDocument, Rate, VerdictName } from '../../topology/path-document.ts'
import { UsageError } from '../args.ts'
import type { ControllerClient } from '../controller-client.ts'
import type { Io } from '../progress.ts'
import { missingRates, readPaths } from './read-paths.ts'

/** How a verdict is printed: problems in capitals, so that they stand out of a tree. */
export const VERDICT_WORDS: Record<VerdictName, string> = {
  dropping: 'DROPPING',
  idle: 'IDLE',
  loop: 'LOOP',
  dead_end: 'DEAD END',
  unknown: 'unknown',
  flowing: 'flowing',
  no_traffic: 'no traffic',
  not_counted: 'not counted',
}

const END_WORDS: Record<NonNullable<Hop['end']>, string> = {
  leaves: 'leaves the host',
  captured: 'to a file',
  unread: 'no SPP process reads it',
}

/** A rate as a person reads it: never 0 for what SPP does not count. */
export function rateText(rate: Rate): string {
  if (rate.pps !== null) return `${rate.pps} pps`
  if (rate.source === 'not counted') return 'not counted'
  return rate.missing === 'reset' ? 'no rate: counters went down' : 'no rate yet'
}

/** Where a rate comes from: its counter, and whether it is inferred or shared. */
function sourceText(rate: Rate): string {
  const parts = [rate.counter ?? 'no counter']
  if (rate.source === 'inferred') parts.push(`inferred: ${rate.note ?? 'from the hop before'}`)
  else if (rate.note) parts.push(rate.note)
  if (rate.shared_by !== undefined) parts.push(`counts ${rate.shared_by} hops together`)
  return parts.join(', ')
}

/** A hop's first line: who moves what from where to where, and in what state. */
export function hopTitle(hop: Hop): string {
  const mover = hop.by.kind === 'patch' ? `${hop.by.label} patch` : `${hop.by.label} ${hop.by.kind}`
  const notes: string[] = [hop.state]
  if (hop.table?.length) notes.push(`for ${hop.table.map((entry) => entry.value).join(', ')}`)
  if (hop.end) notes.push(END_WORDS[hop.end])
  return `${mover}: ${hop.from} -> ${hop.to ?? 'file'} (${notes.join('; ')})`
}

/** A hop's rates and verdict, as lines of three columns. */
function hopDetails(hop: Hop): string[] {
  const { offered, delivered, dropped } = hop.rates
  const rows: [string, string, string][] = [
    ['offered', rateText(offered), sourceText(offered)],
    ['delivered', rateText(delivered), sourceText(delivered)],
    ['dropped', rateText(dropped), sourceText(dropped)],
  ]
  // The first column as wide as its longest word (`not counted`), a space after it.
  const label = (word: string) => `${word.padEnd(11)} `
  const width = Math.max(...rows.map((row) => row[1].length))
  const lines = rows.map(([name, rate, source]) =>
    `${label(name)}${rate.padEnd(width)}  ${source}`.trimEnd(),
  )
  const { verdict, reason } = hop.verdict
  lines.push(`${label(VERDICT_WORDS[verdict])}${reason}`)
  return lines
}

/** The first line of a tree: the port, what arrives there, and the path's verdict. */
function pathTitle(path: Path): string {
  if (path.first.length === 0) return `${path.entry}: nothing reads it`
  const { arriving } = path
  const what =
    arriving.pps === null ? `arriving ${rateText(arriving)}` : `${rateText(arriving)} arriving`
  const verdict = path.verdict === null ? '' : `; ${VERDICT_WORDS[path.verdict]}`
  return `${path.entry}: ${what} (${sourceText(arriving)})${verdict}`
}

/**
 * The tree from some first hops, following `next`, drawn with ASCII branches. A hop already drawn
 * in this tree is named again without its details (`shown above`; a loop comes back so).
 */
export function treeLines(first: readonly string[], hops: ReadonlyMap<string, Hop>): string[] {
  const lines: string[] = []
  const drawn = new Set<string>()
  const draw = (ids: readonly string[], prefix: string) =>
    ids.forEach((id, i) => {
      const hop = hops.get(id)
      if (!hop) return
      const last = i === ids.length - 1
      const branch = last ? '`-- ' : '|-- '
      const under = prefix + (last ? '    ' : '|   ')
      if (drawn.has(id)) {
        lines.push(`${prefix}${branch}${hopTitle(hop)} (shown above)`)
        return
      }
      drawn.add(id)
      lines.push(`${prefix}${branch}${hopTitle(hop)}`)
      const guide = hop.next.length > 0 ? '|   ' : '    '
      for (const detail of hopDetails(hop)) lines.push(`${under}${guide}${detail}`.trimEnd())
      draw(hop.next, under)
    })
  draw(first, '')
  return lines
}

/** The hops that read a port (any queue of it). */
const readingFrom = (document: PathsDocument, port: string) =>
  document.hops.filter((hop) => deviceOf(hop.from) === port).map((hop) => hop.id)

/** Every hop a tree from `first` reaches, each once. */
function reached(first: readonly string[], hops: ReadonlyMap<string, Hop>): Set<string> {
  const seen = new Set<string>()
  const queue = [...first]
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    if (seen.has(id) || !hops.has(id)) continue
    seen.add(id)
    queue.push(...hops.get(id)!.next)
  }
  return seen
}

const PORT = /^[a-z]+:\d+$/

/**
 * The document as far as `port` goes: its path (when packets enter there) and the hops its tree
 * reaches (from the hops that read it, when it is a port in the middle, a ring). A port nothing
 * reads and where nothing enters is a usage error naming the ports there are.
 */
export function pathsFrom(document: PathsDocument, port: string): PathsDocument {
  if (!PORT.test(port)) throw new UsageError(`trace takes a port as phy:0 or ring:1, got ${port}`)
  const path = document.paths.find((p) => p.entry === port)
  const first = path ? path.first : readingFrom(document, port)
  if (!path && first.length === 0) {
    const entries = document.paths.map((p) => p.entry)
    throw new Error(
      `nothing reads ${port} and no packets enter there: they enter at ${entries.join(', ') || 'no port'}`,
    )
  }
  const byId = new Map(document.hops.map((hop) => [hop.id, hop]))
  const kept = reached(first, byId)
  return {
    ...document,
    paths: path ? [path] : [],
    hops: document.hops.filter((hop) => kept.has(hop.id)),
    problems: document.problems.filter((id) => kept.has(id)),
  }
}

/** Seconds to a tenth, as the lines say them. */
export const secondsText = (seconds: number) => `${Math.round(seconds * 10) / 10} s`

/** The first line: over what the rates were taken, or why there are none. */
export function windowLine(document: PathsDocument, missing: string | undefined): string {
  if (document.window_s === null || missing)
    return `No rates: ${missing ?? 'no two reads of the counters a second apart'}.`
  return `Rates over ${secondsText(document.window_s)}, between two reads of the primary's counters.`
}

/** The whole trace, as a terminal shows it. */
export function traceText(document: PathsDocument, port?: string, missing?: string): string {
  const lines = [windowLine(document, missing)]
  if (document.not_read.length > 0)
    lines.push(`Not read yet: ${document.not_read.join(', ')} (what they move is missing).`)
  const byId = new Map(document.hops.map((hop) => [hop.id, hop]))
  if (port !== undefined && document.paths.length === 0) {
    lines.push('', `${port}: packets pass here (they do not enter here); from it:`)
    lines.push(...treeLines(readingFrom(document, port), byId))
  }
  for (const path of document.paths) lines.push('', pathTitle(path), ...treeLines(path.first, byId))
  if (document.paths.length === 0 && port === undefined)
    lines.push('', 'No port where packets enter: the primary has no phy port, or is not read.')
  return `${lines.join('\n')}\n`
}

/** `trace [PORT]`: prints the trees (or the paths document, --json); exits 0 once printed. */
export async function trace(
  io: Io,
  client: ControllerClient,
  port: string | undefined,
  options: { json?: boolean; windowS: number },
): Promise<number> {
  if (port !== undefined && !PORT.test(port))
    throw new UsageError(`trace takes a port as phy:0 or ring:1, got ${port}`)
  const read = await readPaths(client, options.windowS)
  const document = port === undefined ? read.document : pathsFrom(read.document, port)
  if (options.json) io.stdout.write(`${JSON.stringify(document, null, 2)}\n`)
  else io.stdout.write(traceText(document, port, missingRates(read, options.windowS)))
  return 0
}
