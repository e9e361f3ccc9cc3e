// `spp-ctl topology check`: what is wrong with the paths packets take, one line per problem hop
// (where, what, why, what to do), and an exit status a provisioning script can branch on.
import { parseId } from '../../protocol/process-id.ts'
import type { Hop } from '../../topology/path-document.ts'
import type { ControllerClient } from '../controller-client.ts'
import type { Io } from '../progress.ts'
import { missingRates, readPaths, type ReadPaths } from './read-paths.ts'
import { secondsText, VERDICT_WORDS } from './trace.ts'

/** The exit statuses, as `plan --detailed-exitcode`'s: 0 nothing wrong, 2 something, 1 not told. */
export const CHECK_STATUS = { ok: 0, unknown: 1, problems: 2 } as const

/** How to start a mover that is stopped, by its label (`nfv:1`, `primary`, `pcap:4 receive`). */
function startText(label: string): string {
  if (label === 'primary')
    return `start the primary's forwarder (PUT /v1/primary/forward {"action": "start"})`
  const [process = label] = label.split(' ')
  const id = parseId(process)
  if (id?.kind === 'nfv')
    return `start ${process} forwarding (PUT /v1/nfvs/${id.clientId}/forward {"action": "start"}, or status Running in its document)`
  if (id?.kind === 'pcap')
    return `start ${process}'s capture (PUT /v1/pcaps/${id.clientId}/capture {"action": "start"})`
  return `start ${label}`
}

/** What to do about a problem hop. */
export function adviceFor(hop: Hop): string {
  const { verdict, port = hop.to ?? '', readers = [], stopped = [] } = hop.verdict
  const stopSending = `or stop sending into ${port}`
  switch (verdict) {
    case 'dropping':
      if (hop.verdict.reader === 'none')
        return `give ${port} a reader (a component with ${port} as its rx, or a patch from it), ${stopSending}`
      if (hop.verdict.reader === 'stopped')
        return `${readers.map(startText).join('; ')}; ${stopSending}`
      if (!port.startsWith('ring:'))
        return `${port} cannot send as fast as it is sent to: check its link, or send less into it`
      return `${readers.join(', ')} cannot keep up: give ${readers.length === 1 ? 'it a core' : 'them cores'} of ${readers.length === 1 ? 'its' : 'their'} own, share the load with more readers, or send less into ${port}`
    case 'idle':
      return stopped.map(startText).join('; ') || `start ${hop.by.label}`
    case 'loop':
      return `break the loop: change a patch or component between ${hop.to} and ${port}`
    case 'dead_end':
      return port.startsWith('ring:')
        ? `give ${port} a reader (a component with ${port} as its rx, or a patch from it), ${stopSending}`
        : `patch ${hop.from} of ${hop.by.label} to a port it has, or reset its patches`
    default:
      return ''
  }
}

/** What happens at a problem hop, in a few words: `DROPPING 15000 pps at ring:0`. */
function whatText(hop: Hop): string {
  const { verdict, port } = hop.verdict
  const word = VERDICT_WORDS[verdict]
  if (verdict === 'dropping') {
    const pps = hop.rates.dropped.pps
    return `${word} ${pps === null ? '' : `${pps} pps `}at ${port}`
  }
  if (verdict === 'loop') return `${word} back to ${port}`
  if (verdict === 'dead_end') return `${word} at ${port ?? hop.to}`
  return word
}

/** One problem hop's line: where, what, why, what to do. */
export const problemLine = (hop: Hop) =>
  `${hop.id}: ${whatText(hop)}: ${hop.verdict.reason}; ${adviceFor(hop)}`

/** What check found: its result (and exit status), the problem hops, the hops not judged. */
export function checkOf(read: ReadPaths, windowS: number) {
  const { document } = read
  const byId = new Map(document.hops.map((hop) => [hop.id, hop]))
  const problems = document.problems.map((id) => byId.get(id)).filter((hop) => hop !== undefined)
  const unknown = document.hops.filter((hop) => hop.verdict.verdict === 'unknown')
  const missing = missingRates(read, windowS)
  // A problem seen is something wrong whatever else is not known (a stopped forwarder needs no
  // rate); nothing seen tells nothing while a hop, a process or the counters are not known.
  const notTold =
    problems.length > 0
      ? undefined
      : document.not_read.length > 0
        ? `${document.not_read.join(', ')} not read yet: what ${document.not_read.length === 1 ? 'it moves' : 'they move'} is not known`
        : unknown.length > 0 || document.window_s === null
          ? (missing ?? unknown[0]?.verdict.reason)
          : undefined
  const result: keyof typeof CHECK_STATUS =
    problems.length > 0 ? 'problems' : notTold ? 'unknown' : 'ok'
  return { result, problems, unknown, notTold, missing, document }
}

/** `1 hop`, `2 hops`. */
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** The lines check prints (stdout) for what it found; `notTold` goes to stderr. */
export function checkText({ result, problems, unknown, document }: ReturnType<typeof checkOf>) {
  const over =
    document.window_s === null ? 'no rates' : `rates over ${secondsText(document.window_s)}`
  const paths = document.paths.filter((p) => p.first.length > 0).length
  if (result === 'ok')
    return document.hops.length === 0
      ? 'No problems: nothing is configured to move packets.\n'
      : `No problems: ${count(document.hops.length, 'hop')} on ${count(paths, 'path')} (${over}).\n`
  if (result === 'unknown') return ''
  const lines = problems.map(problemLine)
  lines.push(
    `${count(problems.length, 'problem')} (${over}); \`spp-ctl topology trace\` shows every path.`,
  )
  if (unknown.length > 0)
    lines.push(
      `${count(unknown.length, 'more hop')} could not be judged: ${unknown[0]!.verdict.reason}.`,
    )
  if (document.not_read.length > 0)
    lines.push(`Not read yet: ${document.not_read.join(', ')} (what they move is missing).`)
  return `${lines.join('\n')}\n`
}

/** The JSON check prints: the result, each problem hop with what to do, the hops not judged. */
export function checkJson(found: ReturnType<typeof checkOf>) {
  const { result, problems, unknown, notTold, document } = found
  return {
    result,
    window_s: document.window_s,
    problems: problems.map((hop) => ({ ...hop, do: adviceFor(hop) })),
    unknown: unknown.map((hop) => hop.id),
    not_read: document.not_read,
    ...(notTold && { reason: notTold }),
  }
}

/** `check`: prints what is wrong; resolves with 0 (nothing), 2 (something) or 1 (could not tell). */
export async function check(
  io: Io,
  client: ControllerClient,
  options: { json?: boolean; windowS: number },
  command: string,
): Promise<number> {
  const found = checkOf(await readPaths(client, options.windowS), options.windowS)
  if (options.json) io.stdout.write(`${JSON.stringify(checkJson(found), null, 2)}\n`)
  else io.stdout.write(checkText(found))
  if (found.notTold) io.stderr.write(`${command}: could not tell: ${found.notTold}\n`)
  return CHECK_STATUS[found.result]
}
