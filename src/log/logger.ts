// Structured logs on stderr (pino JSON lines, or one readable line each on a terminal), gathered
// and written once per event-loop turn.
import { pino, type Logger } from 'pino'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
export const LOG_FORMATS = ['json', 'pretty'] as const
/** `json`: pino's lines, for services, pipes and tools; `pretty`: pino-pretty's, for a person. */
export type LogFormat = (typeof LOG_FORMATS)[number]

/** Where the lines go: stderr (fd 2) unless a test or an embedder gives its own. */
export type LogOutput = { write(text: string): unknown; isTTY?: boolean }

/** The level, the format (by default: pretty on a terminal, else JSON) and the output. */
export type LoggerOptions = { level?: LogLevel; format?: LogFormat; out?: LogOutput }

/** The format when none is asked for: a person reads a terminal, anything else reads JSON. */
export const defaultLogFormat = (out: { isTTY?: boolean }): LogFormat =>
  out.isTTY === true ? 'pretty' : 'json'

/**
 * Structured logs on stderr, one line per event; stdout stays free for a program's output.
 * Lines are gathered and written synchronously together (a write syscall per line, which also wakes
 * the reader, cost more than a request's handling): at the end of the event loop's turn, at most
 * every few ms under load, and at exit. Every write is synchronous, so none can still be in flight
 * at exit and land after the last lines, or be lost. Pretty lines are formatted in the same place,
 * synchronously (pino-pretty's formatter, not its worker-thread transport, which would lose the
 * last lines at exit).
 */
export async function createLogger(options: LoggerOptions = {}): Promise<Logger> {
  // Written at once whatever its length (sonic-boom retries what the pipe does not take yet).
  const out = options.out ?? pino.destination({ dest: 2, sync: true })
  const tty = options.out ? options.out.isTTY === true : process.stderr.isTTY
  const format = options.format ?? defaultLogFormat({ isTTY: tty })
  const shown = format === 'pretty' ? await prettifier(tty) : (line: string) => line
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
      const text = shown(line)
      lines.push(text)
      chars += text.length
      if (chars >= MAX_GATHERED) return flush()
      if (due) return
      due = true
      const wait = last + GATHER_MS - performance.now()
      if (wait > 0) setTimeout(flush, wait)
      else setImmediate(flush)
    },
    // log.flush(): what is gathered is out before a program writes its own text after it
    flush(done?: () => void) {
      flush()
      done?.()
    },
  }
  return pino({ level: options.level ?? 'info', base: { name: 'spp-ctl' } }, stream)
}
/** Characters gathered at most before they are written. */
const MAX_GATHERED = 16_384
/** Lines written within this long of the last write wait for the next, with those that follow. */
const GATHER_MS = 5

/**
 * One line per event: time, level, message, then the fields as compact JSON. Loaded only when
 * asked for (the bundle holds it, but a JSON logger never evaluates it); coloured on a terminal
 * unless NO_COLOR is set (https://no-color.org).
 */
async function prettifier(tty: boolean): Promise<(line: string) => string> {
  // Its `default` (module.exports, a CommonJS module): a split bundle's import() gives only that.
  const { prettyFactory } = (await import('pino-pretty')).default
  return prettyFactory({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name',
    colorize: tty && !process.env.NO_COLOR,
  })
}

/** For tests and embedding: a logger that writes nothing. */
export const silentLogger = (): Logger => pino({ level: 'silent' })
