// /v1/topology/desired, /drift and /restore: what the controller remembers, how far the processes
// are from it, and bringing them back.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import * as v from 'valibot'
import { ControllerError } from '../../protocol/errors.ts'
import type { ProcessKey } from '../../store/store.ts'
import { DesiredDocument } from '../../topology/document.ts'
import { driftDocument, driftOf, inSync } from '../../remember/drift.ts'
import type { Memory } from '../../remember/memory.ts'
import { entriesOf, idOfKey, storeKey } from '../../topology/process-config.ts'
import { ID_SYNTAX, idText, parseId, ProcessName } from '../../protocol/process-id.ts'
import { ifMatchHolds, ifNoneMatchHolds } from '../../topology/etag.ts'
import { shownStep } from '../../topology/plan.ts'
import { noContent, notModified, setHeader } from '../json.ts'
import type { Deps, Route } from '../route.ts'
import { check } from '../../requests/check.ts'
import { readOptionalRecord, requestHeader } from '../validate.ts'
import { Applied, Plan } from './topology.ts'

const memoryOf = ({ memory }: Deps): Memory => {
  if (memory) return memory
  throw new ControllerError(
    'NOTHING_REMEMBERED',
    'this controller remembers nothing: it was started with --state-dir none',
  )
}
const etagOf = (memory: Memory) => `"${memory.store.revision()}"`

const Refused = v.object({ refused: v.object({ field: v.string(), reason: v.string() }) })
const Report = v.union([Plan, Refused])
const Drift = v.object({
  primary: v.optional(Report),
  nfvs: v.record(v.string(), Report),
  vfs: v.record(v.string(), Report),
  mirrors: v.record(v.string(), Report),
})
const RestoreBody = v.strictObject({ process: v.optional(ProcessName) })

/** Forgets one process, durably (the request path commits it with its journal entry). */
function forget(c: Context, deps: Deps, key: ProcessKey) {
  const memory = memoryOf(deps)
  const ifMatch = requestHeader(c, 'if-match')
  if (ifMatch !== undefined && !ifMatchHolds(ifMatch, etagOf(memory)))
    throw new ControllerError(
      'TOPOLOGY_CHANGED',
      `the remembered document changed since that ETag (now ${etagOf(memory)})`,
    )
  if (!memory.store.recall(key))
    throw new ControllerError(
      'NOTHING_REMEMBERED',
      `nothing is remembered for ${idText(idOfKey(key))}`,
    )
  c.get('forgotten')?.push(idOfKey(key))
  return noContent(c)
}

/** Forgets the process `text` names (any spelling parseId reads), or says why it cannot. */
function forgetNamed(c: Context, deps: Deps, text: string) {
  const id = parseId(text)
  if (!id)
    throw new ControllerError('INVALID_REQUEST', `${JSON.stringify(text)}: expected ${ID_SYNTAX}`)
  const key = storeKey(id)
  if (!key)
    throw new ControllerError('NOTHING_REMEMBERED', `nothing is remembered for ${idText(id)}`)
  return forget(c, deps, key)
}

/** What is remembered, the drift from it, and restores. */
export const rememberRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/topology/desired',
    summary:
      "The remembered configuration of every process, a desired document (ETag: the store's revision)",
    success: DesiredDocument,
    errors: { 404: 'The controller remembers nothing (--state-dir none)' },
    handle: (c, deps) => {
      const memory = memoryOf(deps)
      const etag = etagOf(memory)
      setHeader(c, 'ETag', etag)
      const ifNoneMatch = requestHeader(c, 'if-none-match')
      if (ifNoneMatch !== undefined && ifNoneMatchHolds(ifNoneMatch, etag)) return notModified(c)
      return c.json(memory.store.remembered())
    },
  },
  {
    method: 'delete',
    path: '/v1/topology/desired/{process}',
    summary:
      'Forget a remembered process (vf:2, nfv:1, mirror:3, primary): it will not be restored; If-Match: an ETag of GET /v1/topology/desired',
    success: 204,
    errors: { 404: 'Nothing is remembered for it', 412: 'The remembered document changed' },
    handle: (c, deps) => forgetNamed(c, deps, c.req.param('process')!),
  },
  {
    method: 'delete',
    path: '/v1/topology/desired/{kind}/{client_id}',
    summary:
      'Forget a remembered process, as the path above (kind: nfvs, vfs or mirrors, or nfv, vf, mirror): the spelling of earlier releases',
    success: 204,
    errors: { 404: 'Nothing is remembered for it', 412: 'The remembered document changed' },
    // `vfs/2` and `vf/2` alike, as parseId reads them everywhere else
    handle: (c, deps) =>
      forgetNamed(c, deps, `${c.req.param('kind')!}/${c.req.param('client_id')!}`),
  },
  {
    method: 'get',
    path: '/v1/topology/drift',
    summary:
      'Per remembered process, the steps that would restore it (none when in sync), or why it cannot be; from what the controller knows, nothing is sent. With --state-dir none, nothing is remembered and nothing drifts',
    success: Drift,
    handle: (c, { memory, registry }) => {
      const remembered = memory?.store.remembered() ?? { nfvs: {}, vfs: {}, mirrors: {} }
      return c.json(driftDocument(registry, remembered))
    },
  },
  {
    method: 'post',
    path: '/v1/topology/restore',
    summary:
      'Restore one process ({"process": "vf:2"}) or every connected one that drifts (no body, or {}); its steps are journaled as `restore ID`',
    body: RestoreBody,
    example: { process: 'vf:2' },
    success: Applied,
    command: true,
    errors: {
      404: 'Nothing is remembered for that process',
      422: 'The planner refuses to restore it: `refused key(field): reason`',
    },
    handle: async (c, deps) => {
      const memory = memoryOf(deps)
      const { process } = check(RestoreBody, (await readOptionalRecord(c)) ?? {})
      const remembered = entriesOf(memory.store.remembered()).map(([key]) => key)
      let keys: ProcessKey[]
      if (process !== undefined) {
        const key = storeKey(process)
        if (!key || !memory.store.recall(key))
          throw new ControllerError(
            'NOTHING_REMEMBERED',
            `nothing is remembered for ${idText(process)}`,
          )
        keys = [key]
      } else {
        const connected = (key: ProcessKey) => deps.registry.has(idOfKey(key))
        keys = remembered.filter(
          (key) =>
            connected(key) && !inSync(driftOf(deps.registry, key, memory.store.recall(key)!)),
        )
      }
      const result = await deps.restorer!.restore(keys, c.get('requestId'))
      const refusal = process === undefined ? undefined : result.refused[idText(process)]
      if (refusal)
        throw new ControllerError(
          'PLAN_REFUSED',
          `refused key(${refusal.field}): ${refusal.reason}`,
        )
      const { done, failures, skipped, summary, refused, ms } = result
      const [failed] = failures
      if (!failed) return c.json({ done: done.map(shownStep), summary, refused, ms })
      const body = {
        failed: shownStep(failed),
        failures: failures.map(shownStep),
        done: done.map(shownStep),
        skipped: skipped.map(shownStep),
        refused,
      }
      return c.json(body, failed.status as ContentfulStatusCode)
    },
  },
]
