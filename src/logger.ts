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
  // minLength holds lines back; they are written when flushed or once 8 KiB are gathered.
  const out = pino.destination({ dest: 2, sync: true, minLength: 8192 })
  let due = false
  let last = 0
  const flush = () => {
    due = false
    last = performance.now()
    out.flush() // synchronous in sync mode, without flushSync's fsync
  }
  process.on('exit', () => out.flushSync())
  const stream = {
    write(line: string) {
      out.write(line)
      if (due) return
      due = true
      const wait = last + GATHER_MS - performance.now()
      if (wait > 0) setTimeout(flush, wait)
      else setImmediate(flush)
    },
  }
  return pino({ level, base: { name: 'spp-ctl' } }, stream)
}
/** Lines written within this long of the last write wait for the next, with those that follow. */
const GATHER_MS = 5

/** For tests and embedding: a logger that writes nothing. */
export const silentLogger = (): Logger => pino({ level: 'silent' })
