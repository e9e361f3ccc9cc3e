// The applier: plans against a fresh read, then runs the steps through the processes' handles,
// each checked as a client's request and journaled as the apply's.
import type { Logger } from 'pino'
import type { Registry } from '../actors/registry.ts'
import { ControllerError } from '../protocol/errors.ts'
import { idText } from '../protocol/process-id.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { DesiredDocument } from './document.ts'
import { ifMatchHolds, topologyEtag } from './etag.ts'
import { plan, type Plan, type Step } from './plan.ts'
import { readTopology } from './read-topology.ts'
import { runSteps, type Done, type Failed, type Numbered } from './run-steps.ts'
import type { SendChange } from './send-step.ts'

/**
 * Steps that failed: the first one's status, and every failure with its own status and error
 * code; the steps done, and those skipped after their process failed (no rollback).
 */
export type StepFailed = {
  status: number
  failed: Failed
  failures: Failed[]
  done: Done[]
  skipped: Numbered[]
}
/** Every step done. */
export type Applied = { done: Done[]; summary: Plan['summary']; ms: number }

/** Plans and applies desired documents, one apply at a time; refusals throw (409, 412, 422). */
export function createApplier({
  registry,
  hub,
  log,
  send,
  settled = async () => {},
}: {
  registry: Registry
  hub: EventHub
  log: Logger
  /** Runs one step as its cause (src/topology/send-step.ts). */
  send: SendChange
  /** Resolves when no restore is under way: its steps would change the state an apply plans from. */
  settled?: () => Promise<void>
}) {
  let running = false

  async function planFor(desired: DesiredDocument, requestId: string) {
    const live = await readTopology(registry, { cause: { requestId, by: `apply ${requestId}` } })
    const result = plan(live, desired)
    if (!result.ok) {
      const { field, reason } = result.refusal
      throw new ControllerError('PLAN_REFUSED', `refused key(${field}): ${reason}`)
    }
    return { etag: topologyEtag(live), plan: result.plan }
  }

  async function run(desired: DesiredDocument, requestId: string, ifMatch?: string) {
    await settled()
    const { etag, plan: planned } = await planFor(desired, requestId)
    if (ifMatch !== undefined && !ifMatchHolds(ifMatch, etag))
      throw new ControllerError(
        'TOPOLOGY_CHANGED',
        `the live configuration changed since that ETag (now ${etag}): plan again`,
      )
    const { steps, summary } = planned
    const total = steps.length
    // Each step is journaled as the apply's (`apply ID`), under a request id of its own (`ID.N`),
    // and logged as a request is: who, what, its status.
    const who = `apply ${requestId}`
    const sendOne = async (step: Step, number: number) => {
      const req = `${requestId}.${number}`
      const began = performance.now()
      const answer = await send(step, { requestId: req, by: who })
      const { method, path } = step
      const { status } = answer
      const ms = Math.round(performance.now() - began)
      const fields = { req, who, process: idText(step.process), method, path, status, ms }
      if (answer.ok) log.info(fields, 'apply step done')
      else log.warn({ ...fields, code: answer.code }, `apply step failed: ${answer.error}`)
      return answer
    }
    const run = await runSteps(steps, sendOne, (report) =>
      hub.publish('apply.step', { apply: requestId, ...report }),
    )
    const { done, failures, skipped, ms } = run
    const [failed] = failures
    if (failed === undefined) {
      hub.publish('apply.done', { apply: requestId, total, ms })
      const applied: Applied = { done, summary, ms }
      return applied
    }
    const { number, error } = failed
    hub.publish('apply.failed', { apply: requestId, number, total, error, failed: failures.length })
    const result: StepFailed = { status: failed.status, failed, failures, done, skipped }
    return result
  }

  return {
    /** POST /v1/topology/plan: the steps, with the ETag of the state they were planned from. */
    plan: planFor,
    /** POST /v1/topology/apply: a failed step stops its process's steps, with no rollback. */
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
