import { pino, type Logger } from 'pino'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * Structured JSON logs on stderr, one line per event; stdout stays free for a program's output.
 * Written synchronously: an asynchronous write still in flight at exit could land after the lines
 * flushed by the exit, or be lost.
 */
export const createLogger = (level: LogLevel = 'info'): Logger =>
  pino({ level, base: { name: 'spp-ctl' } }, pino.destination({ dest: 2, sync: true }))

/** For tests and embedding: a logger that writes nothing. */
export const silentLogger = (): Logger => pino({ level: 'silent' })
