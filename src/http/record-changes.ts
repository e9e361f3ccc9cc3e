// The request path's part in the change stream: a request is the cause of the commands it sends;
// once it is answered, its changes are handed to what the controller remembers, and the answer
// goes out only when they are durable.
import type { Context, MiddlewareHandler } from 'hono'
import type { ChangeLedger } from '../actors/change-ledger.ts'
import type { Cause } from '../actors/settled.ts'
import { ControllerError } from '../protocol/errors.ts'
import type { ProcessId } from '../protocol/process-id.ts'
import type { Memory } from '../remember/memory.ts'
import type { JournaledRequest } from '../store/store.ts'
import { describePrincipal } from './auth.ts'

declare module 'hono' {
  interface ContextVariableMap {
    /** Why this request's commands are sent: its id and who made it. */
    cause: Cause
    /** Processes this request forgot (DELETE /v1/topology/desired/...), remembered with it. */
    forgotten?: ProcessId[]
    /** The change commands this request made, for its log line. */
    told?: string[]
  }
}

/** Why a request's commands are sent: its id and who made it (made once per request). */
export function causeOf(c: Context): Cause {
  let cause = c.get('cause')
  if (cause) return cause
  cause = { requestId: c.get('requestId'), by: describePrincipal(c.get('principal')) }
  c.set('cause', cause)
  return cause
}

/**
 * Makes each request the cause of its commands, and collects the changes they made from the
 * registry's change stream. After the handler, with a memory, they are remembered with the
 * request's journal entry, and the answer waits until that is durable: a commit that fails
 * answers 500, never a 2xx. A request that changed nothing writes nothing and waits for nothing.
 */
export function recordChanges({
  ledger,
  memory,
  onJournaled,
}: {
  ledger: ChangeLedger
  memory?: Memory
  /** Told each journaled change once it is durable (the event stream's `journal.entry`). */
  onJournaled?: (request: JournaledRequest) => void
}) {
  return async function recordChangesOf(c: Context, next: () => Promise<void>) {
    // A read changes nothing: its cause is made only if it asks a process (causeOf).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const cause = causeOf(c)
    c.set('forgotten', [])
    ledger.begin(cause)
    let changes
    try {
      await next()
    } finally {
      changes = ledger.end(cause)
    }
    c.set(
      'told',
      changes.flatMap((s) => (s.outcome.ok ? [s.line] : [])),
    )
    if (!memory) return
    const body = c.get('requestBody')
    const request = {
      by: cause.by,
      requestId: cause.requestId,
      method: c.req.method,
      path: c.req.path,
      ...(body === undefined ? {} : { body }),
      status: c.res.status,
    }
    const forgotten = c.get('forgotten') ?? []
    if (changes.length === 0 && forgotten.length === 0) return
    try {
      await memory.record(changes, forgotten, request)
      onJournaled?.(request)
    } catch (error) {
      throw new ControllerError(
        'COMMIT_FAILED',
        `the change was made, but could not be remembered: ${(error as Error).message}`,
      )
    }
  } satisfies MiddlewareHandler
}
