// /v1/topology/history, /rollback and /confirm: the revisions of what is remembered, going back to
// one, and confirming an apply made with confirm_within.
import * as v from 'valibot'
import { ControllerError } from '../../protocol/errors.ts'
import type { Revision } from '../../store/store.ts'
import { DesiredDocument, parseDesired } from '../../topology/document.ts'
import { describePrincipal } from '../auth.ts'
import { json } from '../json.ts'
import type { Deps, Route } from '../route.ts'
import { check } from '../../requests/check.ts'
import { queryOf, readRecord } from '../validate.ts'
import { Applied, ApplyParams, applyAnswer } from './topology.ts'

/** How many revisions GET /v1/topology/history answers unless `limit` says otherwise, and at most. */
export const HISTORY_LIMIT = { default: 20, max: 1000 }
const limits = `an integer from 1 to ${HISTORY_LIMIT.max}`

const HistoryParams = v.strictObject(
  {
    limit: v.optional(
      v.pipe(
        v.string('given once, as text'),
        v.regex(/^\d{1,6}$/, limits),
        v.description(`at most this many revisions (default ${HISTORY_LIMIT.default})`),
        v.transform(Number),
        v.minValue(1, limits),
        v.maxValue(HISTORY_LIMIT.max, limits),
      ),
      String(HISTORY_LIMIT.default),
    ),
  },
  'not a parameter of GET /v1/topology/history (limit)',
)

/** One revision as GET /v1/topology/history lists it. */
const RevisionRow = v.object({
  rev: v.pipe(v.number(), v.integer()),
  time: v.pipe(v.string(), v.isoTimestamp()),
  by: v.string(),
  request_id: v.string(),
  what: v.picklist(['change', 'apply', 'rollback', 'undo', 'expired']),
  to: v.optional(v.pipe(v.number(), v.integer())),
  summary: v.record(v.string(), v.number()),
})

const RollbackBody = v.strictObject({
  to: v.pipe(v.number('a revision number'), v.integer('a revision number'), v.minValue(1)),
})

const rowOf = ({ rev, time, by, requestId, what, to, summary }: Revision) => ({
  rev,
  time: new Date(time).toISOString(),
  by,
  request_id: requestId,
  what,
  ...(to === undefined ? {} : { to }),
  summary,
})

const NO_STATE = 'This controller remembers nothing: it was started with --state-dir none.'
const storeOf = ({ memory }: Deps) => {
  if (memory) return memory.store
  throw new ControllerError('NOTHING_REMEMBERED', NO_STATE)
}

/** The revision by its number (a path segment or a body's `to`), or a 404. */
async function revisionOf(deps: Deps, rev: number) {
  const revision = await storeOf(deps).revisionAt(rev)
  if (revision) return revision
  throw new ControllerError('REVISION_NOT_FOUND', `no revision ${rev} is kept`)
}

/** GET /v1/topology/history[/{rev}], POST /v1/topology/rollback and /confirm. */
export const historyRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/topology/history',
    summary:
      'The revisions of the remembered configuration, newest first: number, time, who, what (change, apply, rollback, undo, expired) and its summary',
    query: HistoryParams,
    success: v.array(RevisionRow),
    errors: { 400: 'The limit is invalid', 404: NO_STATE },
    handle: async (c, deps) => {
      const { limit } = check(HistoryParams, queryOf(c), 'query')
      return json(c, (await storeOf(deps).history(limit)).map(rowOf))
    },
  },
  {
    method: 'get',
    path: '/v1/topology/history/{rev}',
    summary:
      'The remembered configuration at one revision, as GET /v1/topology/desired gives it (a desired document)',
    success: DesiredDocument,
    errors: { 404: 'No revision by that number is kept (or --state-dir none)' },
    handle: async (c, deps) => {
      const text = c.req.param('rev')!
      const rev = /^[1-9]\d{0,14}$/.test(text) ? Number(text) : 0
      if (rev === 0) throw new ControllerError('REVISION_NOT_FOUND', `no revision ${text} is kept`)
      return json(c, (await revisionOf(deps, rev)).document)
    },
  },
  {
    method: 'post',
    path: '/v1/topology/rollback',
    summary:
      'Plan from the live configuration to the document of a revision and apply it as POST /v1/topology/apply does (events, If-Match, all or nothing, keep_partial, confirm_within); the new revision says it rolled back',
    body: RollbackBody,
    query: ApplyParams,
    example: { to: 1 },
    success: Applied,
    command: true,
    errors: {
      404: 'No revision by that number is kept (or --state-dir none)',
      409: 'An apply is already running, or one waits for its confirmation',
      412: 'The live configuration changed since the If-Match ETag: plan again',
      422: 'A process would refuse that revision: `refused key(field): reason`',
    },
    handle: async (c, deps) => {
      const { to } = check(RollbackBody, await readRecord(c))
      const desired = parseDesired((await revisionOf(deps, to)).document)
      return applyAnswer(c, deps, desired, { what: 'rollback', to })
    },
  },
  {
    method: 'post',
    path: '/v1/topology/confirm',
    summary:
      'Confirm the apply made with confirm_within: it stays (otherwise it is undone when its time runs out)',
    success: v.object({ apply: v.string() }),
    errors: { 409: 'No apply waits for a confirmation' },
    handle: async (c, { confirmations }) =>
      c.json(await confirmations.confirm(describePrincipal(c.get('principal')))),
  },
]
