// The request path's part in remembering: each change a request sends is recorded, and its answer
// goes out only once the remembered configuration and the journal entry are on disk.
import type { Context, MiddlewareHandler } from 'hono'
import type { ProcessDescription } from '../actors/describe.ts'
import type { ProcessHandle } from '../actors/process-handle.ts'
import { ControllerError } from '../errors.ts'
import { statusOf } from '../protocol/kinds/status.ts'
import type { Memory, ChangeRecord } from '../topology/memory.ts'
import { NOT_SENT } from '../topology/memory.ts'
import { processName, type ProcessRef } from '../topology/process-config.ts'
import { describePrincipal } from './auth.ts'

declare module 'hono' {
  interface ContextVariableMap {
    /** The change commands this request sent (set when the controller remembers). */
    changes?: ChangeRecord
  }
}

/**
 * Records the changes of every request; after the handler, commits them with the journal entry
 * and waits until that is durable before the answer goes out. A commit that fails answers 500,
 * never a 2xx. A request that sent no change (reads, refusals) writes nothing and waits for nothing.
 */
export function recordChanges({ memory }: { memory: Memory }) {
  return async function recordChangesOf(c: Context, next: () => Promise<void>) {
    const record: ChangeRecord = { sent: [], forgotten: [] }
    c.set('changes', record)
    await next()
    const principal = c.get('principal')
    const body = c.get('requestBody')
    const request = {
      by: describePrincipal(principal),
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      ...(body === undefined ? {} : { body }),
      status: c.res.status,
    }
    const committed = memory.commit(record, request, principal.kind === 'restore')
    if (!committed) return
    try {
      await committed
    } catch (error) {
      throw new ControllerError(
        'COMMIT_FAILED',
        `the change was made, but could not be remembered: ${(error as Error).message}`,
      )
    }
  } satisfies MiddlewareHandler
}

/**
 * A handle whose change commands wait behind the process's restore (unless the request is one of
 * the restore's own steps) and are recorded with their outcome; reads pass as they are.
 */
export function recording(c: Context, handle: ProcessHandle, memory: Memory): ProcessHandle {
  const record = c.get('changes')
  if (!record) return handle
  const process: ProcessRef = { kind: handle.kind, clientId: handle.clientId }
  const restoring = c.get('principal').kind === 'restore'
  return {
    ...handle,
    async ask(command) {
      if (command.read) return handle.ask(command)
      const turn = restoring ? undefined : memory.turn(process)
      if (turn) {
        memory.log.debug(
          { req: c.get('requestId'), process: processName(process) },
          'change waits for the restore of its process',
        )
        await turn
      }
      const { line, effect: change } = command
      let last: ProcessDescription | undefined
      // The view now, as later changes left it; never a new connection's (the process restarted).
      const view = () => {
        try {
          const now = handle.describe()
          if (!last || (now.open && now.peer === last.peer)) last = now
        } catch {
          // gone: its connection's last view stays
        }
        return last?.view
      }
      try {
        const value = await handle.ask(command)
        // A 2020 primary's view does not follow its forwarder's changes (their effect is only the
        // command): one status read brings it up to date before it is remembered.
        if (change.kind === 'primary.changed') await handle.ask(statusOf('primary')).catch(() => {})
        view()
        record.sent.push({ process, line, change, outcome: 'ok', view })
        return value
      } catch (error) {
        const code = (error as ControllerError).code
        if (error instanceof ControllerError && !NOT_SENT.has(code)) {
          const outcome = { error: code, message: error.message }
          record.sent.push({ process, line, change, outcome, view })
        }
        throw error
      }
    },
  }
}
