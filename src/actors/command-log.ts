// The log line of a finished command: done at info, failed at warn, with what it waited and joined.
import type { Logger } from 'pino'
import type { Effect } from '../protocol/effects.ts'
import type { Result } from '../protocol/result.ts'
import type { Job } from './job.ts'

/** Logs one finished command of `process` (checked for its level first: this runs per command). */
export function logCommand(log: Logger, process: string, job: Job, result: Result<Effect>) {
  const level = result.ok ? 'info' : 'warn'
  if (!log.isLevelEnabled(level)) return
  const fields = {
    req: job.requestId,
    process,
    command: job.line,
    outcome: result.ok ? 'ok' : result.code,
    ms: Math.round(performance.now() - job.queuedAt),
    joined: job.waiters.length - 1,
  }
  log[level](fields, result.ok ? 'command done' : `command failed: ${result.message}`)
}
