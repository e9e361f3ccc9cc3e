// The log line of a finished command: a change at info (or in its request's line), a read at
// debug, a failure at warn.
import type { Logger } from 'pino'
import type { ProcessKind } from '../protocol/bodies.ts'
import type { Effect } from '../protocol/effects.ts'
import type { Result } from '../protocol/result.ts'
import type { Job } from './job.ts'
import { processLabel } from './label.ts'

/**
 * Logs one finished command of a process (its level checked first: this runs per command). A
 * change is logged at info: the line sent is what the process was told to do, which no other line
 * says (the journal keeps it only with a state directory), unless its request keeps a list of its
 * changes (`job.told`): then the line goes there, its request's `http request` line tells it, and
 * its own line is debug. A read that succeeded is logged at debug: its request's line already says
 * who asked, what, its status and time. Any failure is logged at warn.
 */
export function logCommand(
  log: Logger,
  process: { kind?: ProcessKind; clientId?: number },
  job: Job,
  result: Result<Effect>,
) {
  if (result.ok && job.told) job.told.push(job.line)
  const level = !result.ok ? 'warn' : job.read || job.told ? 'debug' : 'info'
  if (!log.isLevelEnabled(level)) return
  const fields = {
    req: job.requestId,
    process: processLabel(process),
    command: job.line,
    outcome: result.ok ? 'ok' : result.code,
    ms: Math.round(performance.now() - job.queuedAt),
    joined: job.waiters.length - 1,
  }
  log[level](fields, result.ok ? 'command done' : `command failed: ${result.message}`)
}
