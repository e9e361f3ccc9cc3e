// The log line of each settled command: a change at info (or debug when its request's own line
// tells it), a read at debug, a failure at warn.
import type { Logger } from 'pino'
import { idText } from '../protocol/process-id.ts'
import type { Settled } from './settled.ts'

/**
 * What logs each settled command into `log` (its level checked first: this runs per command). A
 * change caused by a request is debug: the request's `http request` line (or a restore's or an
 * apply's step line) tells it. A change with no cause is info: the line sent is what the process
 * was told to do, which no other line says. A read that succeeded is debug; any failure is warn.
 */
export const commandLog = (log: Logger) =>
  function logCommand(settled: Settled): void {
    const { outcome, read, cause } = settled
    const level = !outcome.ok ? 'warn' : read || cause ? 'debug' : 'info'
    if (!log.isLevelEnabled(level)) return
    const fields = {
      req: cause?.requestId,
      process: idText(settled.process),
      command: settled.line,
      outcome: outcome.ok ? 'ok' : outcome.code,
      ms: Math.round(settled.totalMs),
      joined: settled.joined,
    }
    log[level](fields, outcome.ok ? 'command done' : `command failed: ${outcome.message}`)
  }
