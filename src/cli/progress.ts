// `spp-ctl topology apply`'s and `restore`'s progress: one line per step from the event stream, a
// bar on a terminal.
import { randomBytes } from 'node:crypto'
import type { ShownPlan } from '../topology/plan.ts'
import type { StreamEvent } from './sse-client.ts'

/** Where the CLI reads and writes (process, or a test's fake). */
export type Io = {
  stdout: { write(text: string): unknown; isTTY?: boolean }
  stderr: { write(text: string): unknown }
  stdin: AsyncIterable<unknown> | NodeJS.ReadableStream
}

/** Opens the event stream (subscribed once it resolves), then sends the apply with request id `id`. */
export type StartApply = (
  id: string,
  signal: AbortSignal,
) => Promise<{ events: AsyncIterable<StreamEvent>; response: Promise<Response> }>

type Failed = {
  number: number
  method: string
  path: string
  body?: object
  why: string
  status: number
  error: string
}
/**
 * A failed apply: the first failure, every one (each process stops at its own), the rest, and
 * (unless the partial state was kept) what the undo did.
 */
type Failure = {
  failed: Failed
  failures?: Failed[]
  done: unknown[]
  skipped?: unknown[]
  undone?: unknown[]
  not_undone?: { process: string; reason: string }[]
}
/** An apply that waits for its confirmation (confirm_within). */
type Confirmation = { deadline: string; seconds_left: number }

const BAR = 24
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const steps = (n: number) => (n === 1 ? 'step' : 'steps')

/** What runs: an apply (`apply.step` events) or a restore (`restore.step`), and its words. */
const RUNS = {
  apply: { running: 'Applying', ran: 'Applied' },
  restore: { running: 'Restoring', ran: 'Restored' },
} as const

/** Applies (or restores), showing each step as its event arrives; resolves with the exit status. */
export async function showProgress(
  io: Io,
  plan: ShownPlan,
  start: StartApply,
  command = 'spp-ctl topology',
  run: keyof typeof RUNS = 'apply',
): Promise<number> {
  const id = `spp-ctl-${randomBytes(6).toString('hex')}`
  const abort = new AbortController()
  const tty = io.stdout.isTTY === true
  const total = plan.steps.length
  const out = (text: string) => io.stdout.write(text)
  const bar = (done: number) => {
    const filled = Math.round((BAR * done) / total)
    const next = plan.steps[done]
    if (!tty || !next) return
    const line = `[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${done}/${total}  ${next.why}`
    const columns = (io.stdout as { columns?: number }).columns ?? 200
    out(`\r\x1b[K${line.slice(0, columns - 1)}`) // one line, or \r cannot take it back
  }
  try {
    out(`\n${RUNS[run].running} ${total} ${steps(total)}:\n`)
    const { events, response } = await start(id, abort.signal)
    const began = performance.now()
    bar(0)
    let finished = 0 // steps of different processes end in any order
    let running = 0 // a restore's processes: each is started, then done or failed
    const shown = (async () => {
      for await (const { event, data } of events) {
        if (data[run] !== id) continue
        if (event === 'restore.started') running++
        if (event === 'restore.done' || event === 'restore.failed') running--
        if (event !== `${run}.step`) {
          if (run === 'apply' || running === 0) return
          continue
        }
        const { why, ms, outcome } = data as {
          number: number
          why: string
          ms: number
          outcome: string
        }
        // A restore numbers each process's steps apart: its lines count the steps as they end.
        const number = run === 'apply' ? (data.number as number) : finished + 1
        const mark = outcome === 'done' ? (tty ? '✓' : 'done') : tty ? '✗' : 'FAILED'
        if (tty) out('\r\x1b[K')
        out(
          `  ${mark} ${String(number).padStart(String(total).length)}/${total}  ${why}  (${seconds(ms)})\n`,
        )
        bar(++finished)
      }
    })().catch(() => undefined) // the stream ends when we abort it
    const answer = await response
    const text = await answer.text()
    // Each step's event is published before the answer is sent; the timer only guards a lost event.
    let failsafe: NodeJS.Timeout | undefined
    await Promise.race([shown, new Promise((resolve) => (failsafe = setTimeout(resolve, 2000)))])
    clearTimeout(failsafe)
    if (tty) out('\r\x1b[K')
    if (answer.ok) {
      out(`${RUNS[run].ran} ${total} ${steps(total)} in ${seconds(performance.now() - began)}.\n`)
      const json = answer.headers.get('content-type')?.startsWith('application/json')
      const { confirmation } = (json ? JSON.parse(text) : {}) as { confirmation?: Confirmation }
      if (confirmation)
        out(
          `It is undone at ${confirmation.deadline} (in ${confirmation.seconds_left} s) unless confirmed: spp-ctl topology confirm\n`,
        )
      return 0
    }
    // A failed step is answered with its own status and {failed, done}; anything else is text.
    const failure = answer.headers.get('content-type')?.startsWith('application/json')
      ? (JSON.parse(text) as Failure)
      : undefined
    if (!failure?.failed) {
      io.stderr.write(`${command}: ${run}: ${answer.status}: ${text.trim()}\n`)
      return 1
    }
    const { failed, done } = failure
    for (const one of failure.failures ?? [failed]) {
      const body = one.body === undefined ? '' : ` ${JSON.stringify(one.body)}`
      io.stderr.write(
        `Failed at step ${one.number}/${total}: ${one.why}\n` +
          `  ${one.method} ${one.path}${body}\n` +
          `  -> ${one.status}: ${one.error.trim()}\n`,
      )
    }
    const skipped = failure.skipped?.length ?? 0
    const { undone, not_undone: notUndone = [] } = failure
    const then =
      undone === undefined
        ? 'nothing was rolled back'
        : `undone by ${undone.length} ${steps(undone.length)}${notUndone.length ? ', not all' : ': the processes are as they were'}`
    io.stderr.write(
      `${done.length} ${steps(done.length)} ${done.length === 1 ? 'was' : 'were'} done${skipped ? `, ${skipped} skipped` : ''}; ${then}.\n`,
    )
    for (const { process, reason } of notUndone)
      io.stderr.write(`Not undone: ${process}: ${reason} (it drifts from what is remembered)\n`)
    return 1
  } finally {
    abort.abort()
  }
}
