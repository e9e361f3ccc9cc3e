// One log line per burst of the same event (a flood, EMFILE on every accept), not one per event.
import type { Logger } from 'pino'

/** How long a burst lasts: its first event is logged at once, the count of the rest at its end. */
export const BURST_MS = 10_000

/**
 * A logger of one repeated event: the first of a burst is logged with its fields, the others are
 * only counted and told in one line when the burst's window closes (`msg (N more in 10 s)`).
 * At most two lines per window however fast the events come: a flood cannot flood the log too.
 */
export function burstLog(
  log: Logger,
  level: 'error' | 'warn' | 'info',
  msg: string,
  windowMs = BURST_MS,
) {
  let more = 0
  let window: NodeJS.Timeout | undefined
  return function logBurst(fields: object) {
    if (window) {
      more++
      return
    }
    log[level](fields, msg)
    window = setTimeout(() => {
      if (more > 0) log[level]({ more, windowMs }, `${msg} (${more} more in ${windowMs / 1000} s)`)
      more = 0
      window = undefined
    }, windowMs)
    window.unref() // a pending summary never keeps the process alive
  }
}
