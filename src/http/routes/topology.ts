// /v1/topology: every connected process's state in one document; plan and apply a desired one.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import * as v from 'valibot'
import { MirrorInfo, NfvInfo, PcapInfo, PrimaryStatus, VfInfo } from '../../protocol/bodies.ts'
import { DesiredDocument, parseDesired } from '../../topology/document.ts'
import { topologyEtag } from '../../topology/etag.ts'
import { shownPlan, shownStep } from '../../topology/plan.ts'
import { readTopology } from '../../topology/read-topology.ts'
import type { Route } from '../route.ts'
import { causeOf } from '../record-changes.ts'
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
const example = { nfvs: { '1': { status: 'Running' } } }
const refused = 'The desired state would be refused by a process: `refused key(field): reason`'

/** GET /v1/topology (always 200, with an ETag of the configuration), plan and apply. */
export const topologyRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/topology',
    summary: "Every process's state in one document",
    success: Topology,
    handle: async (c, { registry, present }) => {
      const document = await readTopology(registry, { cause: causeOf(c) })
      c.header('ETag', topologyEtag(document))
      return c.json(present.topology(document))
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
      return c.json(shownPlan(plan))
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
        const { status, failed, failures, done, skipped } = result
        const body = {
          failed: shownStep(failed),
          failures: failures.map(shownStep),
          done: done.map(shownStep),
          skipped: skipped.map(shownStep),
        }
        return c.json(body, status as ContentfulStatusCode)
      }
      const { done, summary, ms } = result
      return c.json({ done: done.map(shownStep), summary, ms })
    },
  },
]
