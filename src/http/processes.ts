// How a handler reaches the process its request addresses: find it once (404), then ask it; a
// change goes through the table every change is asked through (src/requests/changes.ts).
import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import { causeOf } from './record-changes.ts'
import { askingWith, type ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import type { StatusReads } from '../observe/status-reads.ts'
import type { ProcessKind } from '../protocol/bodies.ts'
import type { StatusBody } from '../protocol/kinds/status.ts'
import { PRIMARY, processId, type ProcessId } from '../protocol/process-id.ts'
import { askingOf, type Change } from '../requests/change.ts'
import { noContent, setHeader } from './json.ts'
import { readOptionalRecord } from './validate.ts'

/**
 * Whether the HTTP client went away before its answer was sent. Asked only when its command is
 * about to be written: an AbortController and a 'close' listener per request cost more.
 */
function clientLeft(c: Context): (() => boolean) | undefined {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
  if (!outgoing) return undefined
  return () => outgoing.destroyed && !outgoing.writableFinished
}

/** The header that tells how old (ms) the status read an answer shows is: the oldest, if several. */
export const STATUS_AGE = 'X-Status-Age-Ms'

/** Sets the age header of an answer that shows reads answered at `readAt` (the reads' clock). */
export const tellAge = (c: Context, reads: StatusReads, readAt: number) =>
  setHeader(c, STATUS_AGE, String(Math.max(0, Math.round(reads.now() - readAt))))

/** The primary, or the secondary of this kind the request's `client_id` names. */
const idOf = (c: Context, kind: ProcessKind): ProcessId =>
  kind === 'primary' ? PRIMARY : processId(kind, Number(c.req.param('client_id')))

/** Finding processes on behalf of requests: each command is caused by its request. */
export function processesOf(registry: Registry, reads: StatusReads) {
  return {
    /** The process the request addresses (404 if none). */
    find(c: Context, kind: ProcessKind): ProcessHandle {
      return askingWith(registry.find(idOf(c, kind)), { cause: causeOf(c), left: clientLeft(c) })
    },
    /**
     * Asks a change of the process the request addresses, with the component its path names and
     * its body (read when the change gets to it): a 204 once the process has answered.
     */
    async change(c: Context, kind: ProcessKind, change: Change): Promise<Response> {
      const options = { cause: causeOf(c), left: clientLeft(c) }
      const input = { component: c.req.param('name'), body: () => readOptionalRecord(c) }
      await change.ask(askingOf(registry, idOf(c, kind), options), input)
      return noContent(c)
    },
    /**
     * What the process's own GET answers (404 if there is none): its status, read at most
     * --status-max-age ago and shared with every other reader of it; the answer tells its age.
     */
    async status<K extends ProcessKind>(c: Context, kind: K): Promise<StatusBody[K]> {
      const read = await reads.read(registry.find(idOf(c, kind)), causeOf(c))
      tellAge(c, reads, read.at)
      return read.body as StatusBody[K]
    },
  }
}

export type Processes = ReturnType<typeof processesOf>
