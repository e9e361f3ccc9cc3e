// /v1/topology: every connected process's state in one document; plan and apply a desired one.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import * as v from 'valibot'
import { MirrorInfo, NfvInfo, PcapInfo, PrimaryStatus, VfInfo } from '../../protocol/bodies.ts'
import { DesiredDocument, parseDesired } from '../../topology/document.ts'
import { ifNoneMatchHolds } from '../../topology/etag.ts'
import type { TopologyDocument } from '../../topology/read-topology.ts'
import { json } from '../json.ts'
import type { Presenters } from '../present.ts'
import { tellAge } from '../processes.ts'
import { causeOf } from '../record-changes.ts'
import type { Route } from '../route.ts'
import { readRecord } from '../validate.ts'

const Unreadable = v.object({ error: v.string() })
const byClientId = <T extends v.GenericSchema>(state: T) =>
  v.record(v.string(), v.union([state, Unreadable]))
/** GET /v1/topology: keyed by client id, each what the process's own GET answers. */
const Topology = v.object({
  primary: v.union([PrimaryStatus, Unreadable, v.object({})]),
  nfvs: byClientId(NfvInfo),
  vfs: byClientId(VfInfo),
  mirrors: byClientId(MirrorInfo),
  pcaps: v.optional(byClientId(PcapInfo)),
})
const Step = v.object({
  method: v.picklist(['POST', 'PUT', 'DELETE']),
  path: v.string(),
  body: v.optional(v.record(v.string(), v.unknown())),
  action: v.string(),
  why: v.string(),
})
export const Plan = v.object({ steps: v.array(Step), summary: v.record(v.string(), v.number()) })
export const Applied = v.object({
  done: v.array(v.looseObject({})),
  summary: v.record(v.string(), v.number()),
  ms: v.number(),
})

const desiredOf = async (c: Context) => parseDesired(await readRecord(c))
// The answer made once per document built (and serialised once, by json()), not once per request.
const answers = new WeakMap<TopologyDocument, object>()
const answerOf = (document: TopologyDocument, present: Presenters) => {
  let answer = answers.get(document)
  if (!answer) answers.set(document, (answer = present.topology(document)))
  return answer
}
const example = { nfvs: { '1': { status: 'Running' } } }
const refused = 'The desired state would be refused by a process: `refused key(field): reason`'

/**
 * GET /v1/topology (200 with an ETag of the configuration and the age of its oldest read, or 304
 * when If-None-Match holds that ETag), plan and apply.
 */
export const topologyRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/topology',
    summary:
      "Every process's state in one document (reads shared within --status-max-age; X-Status-Age-Ms: the oldest's age; If-None-Match: 304 while the configuration is the same)",
    success: Topology,
    handle: async (c, { topology, reads, present }) => {
      const { document, etag, readAt } = await topology.current(causeOf(c))
      c.header('ETag', etag)
      tellAge(c, reads, readAt)
      const ifNoneMatch = c.req.header('If-None-Match')
      if (ifNoneMatch !== undefined && ifNoneMatchHolds(ifNoneMatch, etag)) return c.body(null, 304)
      return json(c, answerOf(document, present))
    },
  },
  {
    method: 'post',
    path: '/v1/topology/plan',
    summary: 'The steps that would make the live state the desired one (nothing is sent)',
    body: DesiredDocument,
    example,
    success: Plan,
    errors: { 422: refused },
    handle: async (c, { applier }) => {
      const { etag, plan } = await applier.plan(await desiredOf(c), c.get('requestId'))
      c.header('ETag', etag)
      return c.json(plan)
    },
  },
  {
    method: 'post',
    path: '/v1/topology/apply',
    summary:
      'Plan, then run the steps in order (If-Match: an ETag); stops at the first failed step, answering its status with {failed, done}',
    body: DesiredDocument,
    example,
    success: Applied,
    command: true,
    errors: {
      409: 'An apply is already running',
      412: 'The live configuration changed since the If-Match ETag: plan again',
      422: refused,
    },
    handle: async (c, { applier }) => {
      const desired = await desiredOf(c)
      const result = await applier.apply(desired, c.get('requestId'), c.req.header('If-Match'))
      if ('failed' in result) {
        const { status, ...body } = result
        return c.json(body, status as ContentfulStatusCode)
      }
      return c.json(result)
    },
  },
]
