// `spp-ctl journal [--follow]`: the controller's change journal (GET /v1/journal) as a table.
import { setTimeout as sleep } from 'node:timers/promises'
import { CLIENT_OPTIONS, readArgs, usageText, UsageError } from './args.ts'
import {
  connectTo,
  URL_HELP,
  UnreachableError,
  type ControllerClient,
} from './controller-client.ts'
import { TOKEN_HELP } from './token.ts'
import type { Io } from './progress.ts'
import { journalEvents } from './journal-events.ts'
import { ID_SYNTAX, idText, parseId } from '../protocol/process-id.ts'

const COMMAND = 'spp-ctl journal'

const HELP = `Usage: spp-ctl journal [options]

Prints the controller's last changes, oldest first (newest at the bottom): when, who, the
request's status, method and path, the processes it touched and the commands it sent.

Options:
      --process NAME      only changes to this process: primary, nfv:1, vf:2, mirror:3
      --by NAME           only changes by this client (as the BY column shows it)
      --since TIME        only changes at this time or later (ISO 8601, as 2026-01-31T12:00:00Z)
      --limit N           the last N changes (default 20; at most 1000)
  -f, --follow            then print each new change as it is made, until interrupted; when
                          the controller goes away, wait for it and go on
      --poll MS           --follow without the event stream: how often to ask (default 1000)
      --json              one JSON object a line, as GET /v1/journal answers each entry
${URL_HELP}${TOKEN_HELP}  -h, --help              show this text
`

const OPTIONS = {
  process: { type: 'string' },
  by: { type: 'string' },
  since: { type: 'string' },
  limit: { type: 'string', default: '20' },
  follow: { type: 'boolean', short: 'f' },
  poll: { type: 'string', default: '1000' },
  json: { type: 'boolean' },
  ...CLIENT_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const

/** An entry of GET /v1/journal. */
type Entry = {
  id: number
  time: string
  by: string
  method: string
  path: string
  status: number
  processes: string[]
  commands: { line: string; outcome: unknown }[]
}

// A clock stepped back must not hide an entry: each poll looks back this far, and skips ids seen.
const LOOK_BACK_MS = 60_000
const PAGE = 1000
// While the controller is away: the first try soon, then less and less often.
const RETRY_MS = { first: 250, max: 5000 }

/** Runs `spp-ctl journal`; resolves with the exit status (with --follow, only on an error). */
export async function runJournal(args: string[], io: Io = process): Promise<number> {
  try {
    const { values, positionals } = readArgs(args, OPTIONS)
    if (values.help) {
      io.stdout.write(HELP)
      return 0
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`)
    const pollMs = /^\d{1,7}$/.test(values.poll) ? Math.max(Number(values.poll), 10) : NaN
    if (Number.isNaN(pollMs)) throw new UsageError('--poll must be a number of milliseconds')
    // One spelling printed, any the controller's other routes read (vfs/2) taken quietly.
    const named = values.process === undefined ? undefined : parseId(values.process)
    if (values.process !== undefined && !named)
      throw new UsageError(`--process takes ${ID_SYNTAX}, got ${JSON.stringify(values.process)}`)
    const client = await connectTo(values, {
      say: (line) => io.stderr.write(`${line}\n`),
      warn: (text) => io.stderr.write(`${COMMAND}: warning: ${text}\n`),
    })
    const filters = { process: named && idText(named), by: values.by }
    const read = (since: string | undefined, limit: string) =>
      readJournal(client, { ...filters, since, limit })
    const print = printer(io, values.json === true)

    // Subscribed before the first read, so that no change falls between the two.
    let changed = values.follow ? await journalEvents(client) : undefined
    let shown = (await read(values.since, values.limit)).reverse()
    print(shown)
    if (!changed) return 0
    let last = shown.at(-1)
    for (;;) {
      // Each journal.entry on the event stream is a change now durable; without the stream
      // (an older controller, a proxy that buffers), the route is polled every --poll ms.
      await (changed.live ? changed.next() : sleep(pollMs))
      // Never before --since: the look-back only moves it later.
      const lookBack = last && Date.parse(last.time) - LOOK_BACK_MS
      const since =
        lookBack === undefined || Date.parse(values.since ?? '') > lookBack
          ? values.since
          : new Date(lookBack).toISOString()
      let page: Entry[]
      try {
        page = await read(since, String(PAGE))
      } catch (error) {
        if (!(error instanceof UnreachableError)) throw error
        changed.close()
        changed = await reconnect(io, client, error)
        continue // read again, from the last entry shown: nothing made meanwhile is missed
      }
      // A stream that ended (the controller restarted on its own between two reads): open anew.
      if (changed.ended) changed = await journalEvents(client)
      shown = page.filter((e) => e.id > (last?.id ?? 0)).reverse()
      if (page.length === PAGE && shown.length === PAGE)
        io.stderr.write(
          `${COMMAND}: over ${PAGE} changes since the last poll; older ones skipped\n`,
        )
      print(shown)
      last = shown.at(-1) ?? last
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    io.stderr.write(
      error instanceof UsageError ? usageText(COMMAND, message) : `${COMMAND}: ${message}\n`,
    )
    return 1
  }
}

/**
 * Waits for the controller to come back, trying again less and less often (a quarter of a second
 * at first, every 5 s at most); says so once when it goes and once when it is back. Resolves with
 * the event stream opened anew.
 */
async function reconnect(io: Io, client: ControllerClient, lost: UnreachableError) {
  io.stderr.write(`${COMMAND}: ${lost.message}; waiting for it to come back\n`)
  for (let wait = RETRY_MS.first; ; wait = Math.min(wait * 2, RETRY_MS.max)) {
    await sleep(wait)
    const events = await journalEvents(client)
    // The stream opened, or the controller answers without one (an older controller, a proxy).
    const back =
      events.live ||
      (await client.fetch('/v1/journal?limit=1', { headers: client.headers }).then(
        (answer) => (void answer.body?.cancel(), true),
        () => false,
      ))
    if (back) {
      io.stderr.write(`${COMMAND}: the controller at ${client.url} is back\n`)
      return events
    }
    events.close()
  }
}

/** GET /v1/journal with the filters given; a refusal or an error is an error with its text. */
async function readJournal(
  client: ControllerClient,
  filters: Record<string, string | undefined>,
): Promise<Entry[]> {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(filters))
    if (value !== undefined) query.set(name, value)
  const response = await client.fetch(`/v1/journal?${query}`, { headers: client.headers })
  const text = await response.text()
  if (!response.ok) throw new Error(`GET /v1/journal: ${client.refusal(response, text)}`)
  return JSON.parse(text) as Entry[]
}

const COLUMNS = ['TIME', 'BY', 'STATUS', 'REQUEST', 'PROCESSES', 'COMMANDS'] as const
// The widths the first rows get at least, so that later rows (--follow) mostly line up.
const MIN_WIDTHS = [24, 8, 6, 32, 10, 0]

/** Prints entries as table rows (a header first) or JSON lines, keeping the widths it chose. */
function printer(io: Io, json: boolean) {
  let widths: number[] | undefined
  return (entries: Entry[]) => {
    if (json) return entries.forEach((e) => io.stdout.write(`${JSON.stringify(e)}\n`))
    const rows = entries.map(cells)
    if (!widths) {
      widths = COLUMNS.map((name, i) =>
        Math.max(name.length, MIN_WIDTHS[i]!, ...rows.map((row) => row[i]!.length)),
      )
      rows.unshift([...COLUMNS])
    }
    for (const row of rows)
      io.stdout.write(
        `${row
          .map((cell, i) => cell.padEnd(widths![i]!))
          .join('  ')
          .trimEnd()}\n`,
      )
  }
}

/** An entry's cells: a failed command shows its error code after it. */
function cells(e: Entry): string[] {
  const commands = e.commands.map(({ line, outcome }) => {
    const error = (outcome as { error?: unknown } | null)?.error
    return outcome === 'ok' ? line : `${line} (${typeof error === 'string' ? error : 'failed'})`
  })
  return [
    e.time,
    e.by,
    String(e.status),
    `${e.method} ${e.path}`,
    e.processes.join(',') || '-',
    commands.join('; ') || '-',
  ]
}
