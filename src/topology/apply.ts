// The applier: plans against a fresh read, then runs each step through the app's own REST routes.
import type { Registry } from '../actors/registry.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { DesiredDocument } from './document.ts'
import { ifMatchHolds, topologyEtag } from './etag.ts'
import { plan, type Step } from './plan.ts'
import { readTopology } from './read-topology.ts'

/** Sends one request to the app itself (`app.request`), so each step is checked like a client's. */
export type Dispatch = (path: string, init: RequestInit) => Response | Promise<Response>

/** What the routes answer: JSON, or a text/plain error. */
export type Answer =
  | { status: 200 | 400 | 500; json: object; etag?: string }
  | { status: 409 | 412 | 422; text: string }

type Done = Step & { status: number; ms: number }

/** Plans and applies desired documents, one apply at a time. */
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
    return { etag: topologyEtag(live), result: plan(live, desired) }
  }

  async function run(desired: DesiredDocument, requestId: string, ifMatch?: string) {
    const { etag, result } = await planFor(desired, requestId)
    if (ifMatch !== undefined && !ifMatchHolds(ifMatch, etag)) return stale(etag)
    if (!result.ok) return refused(result.refusal)
    const { steps, summary } = result.plan
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
      if (response.ok) {
        await response.body?.cancel()
        hub.publish('apply.step', { ...report, outcome: 'done' })
        done.push({ ...step, status: response.status, ms })
        continue
      }
      const error = await response.text()
      hub.publish('apply.step', { ...report, outcome: 'failed', status: response.status, error })
      hub.publish('apply.failed', { apply: requestId, number, total, error })
      const failed = { number, ...step, status: response.status, error }
      return { status: response.status === 400 ? 400 : 500, json: { failed, done } } as const
    }
    const ms = Math.round(performance.now() - started)
    hub.publish('apply.done', { apply: requestId, total, ms })
    return { status: 200, json: { done, summary, ms } } as const
  }

  return {
    /** POST /v1/topology/plan: the steps, or why the processes would refuse the desired state. */
    async plan(desired: DesiredDocument, requestId: string): Promise<Answer> {
      const { etag, result } = await planFor(desired, requestId)
      return result.ok ? { status: 200, json: result.plan, etag } : refused(result.refusal)
    },
    /** POST /v1/topology/apply: stops at the first failed step, with no rollback. */
    async apply(desired: DesiredDocument, requestId: string, ifMatch?: string): Promise<Answer> {
      if (running) return { status: 409, text: 'an apply is already running: try again after it' }
      running = true // before any await: a second apply arriving meanwhile sees it
      try {
        return await run(desired, requestId, ifMatch)
      } finally {
        running = false
      }
    },
  }
}

const stale = (etag: string): Answer => ({
  status: 412,
  text: `the live configuration changed since that ETag (now ${etag}): plan again`,
})

const refused = ({ field, reason }: { field: string; reason: string }): Answer => ({
  status: 422,
  text: `refused key(${field}): ${reason}`,
})
