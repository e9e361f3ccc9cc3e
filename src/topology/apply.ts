// The applier: plans against a fresh read, then runs each step through the app's own REST routes.
import type { Registry } from '../actors/registry.ts'
import { ControllerError } from '../errors.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { DesiredDocument } from './document.ts'
import { ifMatchHolds, topologyEtag } from './etag.ts'
import { plan, type Plan, type Step } from './plan.ts'
import { readTopology } from './read-topology.ts'

/**
 * Sends one request to the app itself (`app.request`), so each step is checked like a client's.
 * A failed step's answer names its error code in `X-Error-Code`.
 */
export type Dispatch = (path: string, init: RequestInit) => Response | Promise<Response>

type Done = Step & { status: number; ms: number }
/** A step that failed: its own status and error code, what it said, and the steps done before it. */
export type StepFailed = {
  status: number
  failed: Step & { number: number; status: number; code: string | null; error: string }
  done: Done[]
}
/** Every step done. */
export type Applied = { done: Done[]; summary: Plan['summary']; ms: number }

/** Plans and applies desired documents, one apply at a time; refusals throw (409, 412, 422). */
export function createApplier({
  registry,
  hub,
  dispatch,
}: {
  registry: Registry
  hub: EventHub
  dispatch: Dispatch
}) {
  let running = false

  async function planFor(desired: DesiredDocument, requestId: string) {
    const live = await readTopology(registry, { requestId })
    const result = plan(live, desired)
    if (!result.ok) {
      const { field, reason } = result.refusal
      throw new ControllerError('PLAN_REFUSED', `refused key(${field}): ${reason}`)
    }
    return { etag: topologyEtag(live), plan: result.plan }
  }

  async function run(desired: DesiredDocument, requestId: string, ifMatch?: string) {
    const { etag, plan: planned } = await planFor(desired, requestId)
    if (ifMatch !== undefined && !ifMatchHolds(ifMatch, etag))
      throw new ControllerError(
        'TOPOLOGY_CHANGED',
        `the live configuration changed since that ETag (now ${etag}): plan again`,
      )
    const { steps, summary } = planned
    const total = steps.length
    const started = performance.now()
    const done: Done[] = []
    for (const [i, step] of steps.entries()) {
      const number = i + 1
      const begun = performance.now()
      const response = await dispatch(step.path, {
        method: step.method,
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': `${requestId}.${number}` },
        body: step.body === undefined ? undefined : JSON.stringify(step.body),
      })
      const ms = Math.round(performance.now() - begun)
      const { method, path, why } = step
      const report = { apply: requestId, number, total, method, path, why, ms }
      const { status } = response
      if (response.ok) {
        await response.body?.cancel()
        hub.publish('apply.step', { ...report, outcome: 'done' })
        done.push({ ...step, status, ms })
        continue
      }
      const error = await response.text()
      const code = response.headers.get('X-Error-Code')
      hub.publish('apply.step', { ...report, outcome: 'failed', status, error })
      hub.publish('apply.failed', { apply: requestId, number, total, error })
      const failed: StepFailed = { status, failed: { number, ...step, status, code, error }, done }
      return failed
    }
    const ms = Math.round(performance.now() - started)
    hub.publish('apply.done', { apply: requestId, total, ms })
    const applied: Applied = { done, summary, ms }
    return applied
  }

  return {
    /** POST /v1/topology/plan: the steps, with the ETag of the state they were planned from. */
    plan: planFor,
    /** POST /v1/topology/apply: stops at the first failed step, with no rollback. */
    async apply(
      desired: DesiredDocument,
      requestId: string,
      ifMatch?: string,
    ): Promise<Applied | StepFailed> {
      if (running)
        throw new ControllerError(
          'APPLY_RUNNING',
          'an apply is already running: try again after it',
        )
      running = true // before any await: a second apply arriving meanwhile sees it
      try {
        return await run(desired, requestId, ifMatch)
      } finally {
        running = false
      }
    },
  }
}
export type Applier = ReturnType<typeof createApplier>
