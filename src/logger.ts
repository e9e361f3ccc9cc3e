// Structured logs: pino JSON lines on stderr, gathered and written once per event-loop turn.
import { pino, type Logger } from 'pino'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * Structured JSON logs on stderr, one line per event; stdout stays free for a program's output.
 * Lines are gathered and written synchronously together (a write syscall per line, which also wakes
 * the reader, cost more than a request's handling): at the end of the event loop's turn, at most
 * every few ms under load, and at exit. Every write is synchronous, so none can still be in flight
 * at exit and land after the last lines, or be lost.
 */
export function createLogger(level: LogLevel = 'info'): Logger {
  // Written at once whatever its length (sonic-boom retries what the pipe does not take yet).
  const out = pino.destination({ dest: 2, sync: true })
  let lines: string[] = []
  let chars = 0
  let due = false
  let last = 0
  const flush = () => {
    due = false
    last = performance.now()
    if (lines.length === 0) return
    const text = lines.join('')
    lines = []
    chars = 0
    out.write(text)
  }
  process.on('exit', flush)
  const stream = {
    write(line: string) {
      lines.push(line)
      chars += line.length
      if (chars >= MAX_GATHERED) return flush()
      if (due) return
      due = true
      const wait = last + GATHER_MS - performance.now()
      if (wait > 0) setTimeout(flush, wait)
      else setImmediate(flush)
    },
  }
  return pino({ level, base: { name: 'spp-ctl' } }, stream)
}
/** Characters gathered at most before they are written. */
const MAX_GATHERED = 16_384
/** Lines written within this long of the last write wait for the next, with those that follow. */
const GATHER_MS = 5

/** For tests and embedding: a logger that writes nothing. */
export const silentLogger = (): Logger => pino({ level: 'silent' })
