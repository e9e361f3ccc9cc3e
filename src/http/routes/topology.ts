// /v1/topology: every connected process's state in one document; plan and apply a desired one.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import * as v from 'valibot'
import { MirrorInfo, NfvInfo, PcapInfo, PrimaryStatus, VfInfo } from '../../protocol/bodies.ts'
import type { ApplyNote } from '../../topology/apply.ts'
import { DesiredDocument, parseDesired } from '../../topology/document.ts'
import { ifNoneMatchHolds } from '../../topology/etag.ts'
import { HopVerdict } from '../../topology/path-document.ts'
import { shownPlan, shownStep } from '../../topology/plan.ts'
import type { TopologyDocument } from '../../topology/read-topology.ts'
import { describePrincipal } from '../auth.ts'
import { json, notModified, setHeader } from '../json.ts'
import type { Presenters } from '../present.ts'
import { tellAge } from '../processes.ts'
import { causeOf } from '../record-changes.ts'
import type { Deps, Route } from '../route.ts'
import { check } from '../../requests/check.ts'
import { queryOf, readRecord, requestHeader } from '../validate.ts'

const Unreadable = v.object({ error: v.string() })
/** An apply that waits for its confirmation (POST /v1/topology/confirm). */
const Confirmation = v.object({
  apply: v.string(),
  by: v.string(),
  deadline: v.pipe(v.string(), v.isoTimestamp()),
  seconds_left: v.number(),
  processes: v.array(v.string()),
})
const byClientId = <T extends v.GenericSchema>(state: T) =>
  v.record(v.string(), v.union([state, Unreadable]))
/** GET /v1/topology: keyed by client id, each what the process's own GET answers. */
const Topology = v.object({
  primary: v.union([PrimaryStatus, Unreadable, v.object({})]),
  nfvs: byClientId(NfvInfo),
  vfs: byClientId(VfInfo),
  mirrors: byClientId(MirrorInfo),
  pcaps: v.optional(byClientId(PcapInfo)),
  confirmation: v.optional(Confirmation),
  verdicts: v.pipe(
    v.array(HopVerdict),
    v.description(
      "every hop's verdict, as GET /v1/topology/paths judges it from the reads so far: outside the ETag, so a 304 may hide a verdict that changed",
    ),
  ),
})
const Step = v.object({
  method: v.picklist(['POST', 'PUT', 'DELETE']),
  path: v.string(),
  body: v.optional(v.record(v.string(), v.unknown())),
  action: v.string(),
  why: v.string(),
  after: v.optional(
    v.pipe(
      v.object({ steps: v.array(v.number()), why: v.string() }),
      v.description(
        'the steps (by number, from 1) this one waits for besides the one before it of its own process: the readers of a ring it sends into, or the senders into a ring it stops reading',
      ),
    ),
  ),
})
export const Plan = v.object({
  steps: v.array(Step),
  summary: v.record(v.string(), v.number()),
  warnings: v.optional(
    v.pipe(
      v.array(v.object({ port: v.string(), why: v.string() })),
      v.description(
        'only when there are some: the rings the desired state sends into while nothing reads them (applied all the same), or a loop of waits the order breaks',
      ),
    ),
  ),
})
export const Applied = v.object({
  done: v.array(v.looseObject({})),
  summary: v.record(v.string(), v.number()),
  ms: v.number(),
  confirmation: v.optional(Confirmation),
})

const once = 'given once, as text' // a repeated parameter arrives as an array
const SECONDS = 'an integer number of seconds from 1 to 86400'
/** How an apply goes: all or nothing unless `keep_partial`; undone unless confirmed in time. */
export const ApplyParams = v.strictObject(
  {
    keep_partial: v.optional(
      v.pipe(
        v.picklist(['true', 'false'], 'true or false'),
        v.description(
          'true: when a step fails, leave the steps done as they are (default false: undo them, in reverse)',
        ),
        v.transform((text) => text === 'true'),
      ),
    ),
    confirm_within: v.optional(
      v.pipe(
        v.string(once),
        v.regex(/^[1-9]\d{0,4}$/, SECONDS),
        v.description(
          'undo the apply by itself unless POST /v1/topology/confirm comes within this many seconds (1 to 86400)',
        ),
        v.transform(Number),
        v.maxValue(86_400, SECONDS),
      ),
    ),
  },
  'not a parameter of an apply (keep_partial, confirm_within)',
)

/**
 * Applies a document as POST /v1/topology/apply does (a rollback too): the answer, a failed step's
 * with its status, and with `confirm_within` the confirmation it now waits for.
 */
export async function applyAnswer(
  c: Context,
  { applier, confirmations }: Deps,
  desired: DesiredDocument,
  what: Omit<ApplyNote, 'by'>,
) {
  const { keep_partial: keepPartial, confirm_within: within } = check(
    ApplyParams,
    queryOf(c),
    'query',
  )
  const id = c.get('requestId')
  const note = { ...what, by: describePrincipal(c.get('principal')) }
  const confirmed = within === undefined ? undefined : confirmations
  const beforeSteps =
    confirmed && ((before: DesiredDocument) => confirmed.begin(id, note.by, within!, before))
  const ifMatch = requestHeader(c, 'if-match')
  const result = await applier
    .apply(desired, id, { ifMatch, keepPartial, note, ...(beforeSteps ? { beforeSteps } : {}) })
    .catch(async (error: unknown) => {
      await confirmed?.drop(id)
      throw error
    })
  if (confirmed) {
    // Something of the apply is left (done, and not undone): it is undone unless confirmed in
    // time. An apply that had nothing to do leaves nothing to confirm.
    const left = result.done.length > 0 && !('failed' in result && result.undone !== undefined)
    await (left ? confirmed.arm(id) : confirmed.drop(id))
  }
  // Each step as answers show it (shownStep), the keys in the order the applier gave them.
  if ('failed' in result) {
    const { status, failed, failures, done, skipped, undone, ...rest } = result
    const body = {
      failed: shownStep(failed),
      failures: failures.map(shownStep),
      done: done.map(shownStep),
      skipped: skipped.map(shownStep),
      ...(undone === undefined ? {} : { undone: undone.map(shownStep) }),
      ...rest,
    }
    return c.json(body, status as ContentfulStatusCode)
  }
  const confirmation = confirmed?.pending()
  const { done, summary, ms } = result
  return c.json({
    done: done.map(shownStep),
    summary,
    ms,
    ...(confirmation ? { confirmation } : {}),
  })
}

const desiredOf = async (c: Context) => parseDesired(await readRecord(c))
// The answer made once per document built and verdicts judged (and serialised once, by json()),
// not once per request.
const answers = new WeakMap<TopologyDocument, { verdicts: HopVerdict[]; answer: object }>()
const answerOf = (document: TopologyDocument, present: Presenters, verdicts: HopVerdict[]) => {
  let made = answers.get(document)
  if (made?.verdicts !== verdicts) {
    made = { verdicts, answer: { ...present.topology(document), verdicts } }
    answers.set(document, made)
  }
  return made.answer
}
const example = { nfvs: { '1': { status: 'Running' } } }
const refused = 'The desired state would be refused by a process: `refused key(field): reason`'

/**
 * GET /v1/topology (200 with an ETag of all but counters and the age of its oldest read, or 304
 * when If-None-Match holds that ETag), plan and apply.
 */
export const topologyRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/topology',
    summary:
      "Every process's state in one document, and every hop's verdict (reads shared within --status-max-age; X-Status-Age-Ms: the oldest's age; If-None-Match: 304 while the configuration is the same, whatever the counters and verdicts)",
    success: Topology,
    handle: async (c, { topology, reads, present, confirmations, paths }) => {
      const { document, etag, readAt } = await topology.current(causeOf(c))
      const verdicts = paths.verdicts()
      setHeader(c, 'ETag', etag)
      tellAge(c, reads, readAt)
      // A pending confirmation counts down: its answer is never the one the client holds, and is
      // not kept (a browser would show it again for a 304 once the confirmation is gone).
      const confirmation = confirmations.pending()
      if (confirmation) {
        setHeader(c, 'Cache-Control', 'no-store')
        return c.json({ ...answerOf(document, present, verdicts), confirmation })
      }
      const ifNoneMatch = requestHeader(c, 'if-none-match')
      if (ifNoneMatch !== undefined && ifNoneMatchHolds(ifNoneMatch, etag)) return notModified(c)
      return json(c, answerOf(document, present, verdicts))
    },
  },
  {
    method: 'post',
    path: '/v1/topology/plan',
    summary:
      'The steps that would make the live state the desired one, in the order they run, and the rings it would send into that nothing reads (nothing is sent)',
    body: DesiredDocument,
    example,
    success: Plan,
    errors: { 422: refused },
    handle: async (c, { applier }) => {
      const { etag, plan } = await applier.plan(await desiredOf(c), c.get('requestId'))
      setHeader(c, 'ETag', etag)
      const { warnings } = plan
      return c.json({ ...shownPlan(plan), ...(warnings.length > 0 ? { warnings } : {}) })
    },
  },
  {
    method: 'post',
    path: '/v1/topology/apply',
    summary:
      "Plan, then run the steps (If-Match: an ETag); a failed step stops its process's steps, then the steps done are undone in reverse (unless keep_partial), answering the failed step's status with {failed, done, undone, not_undone}",
    body: DesiredDocument,
    query: ApplyParams,
    example,
    success: Applied,
    command: true,
    errors: {
      409: 'An apply is already running, or one waits for its confirmation',
      412: 'The live configuration changed since the If-Match ETag: plan again',
      422: refused,
    },
    handle: async (c, deps) => applyAnswer(c, deps, await desiredOf(c), { what: 'apply' }),
  },
]
