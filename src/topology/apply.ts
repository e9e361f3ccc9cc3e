// The applier: plans against a fresh read, then runs the steps through the processes' handles,
// each checked as a client's request and journaled as the apply's; a failed apply is undone (all
// or nothing) by planning back to what its processes were before.
import type { Logger } from 'pino'
import type { Registry } from '../actors/registry.ts'
import { ControllerError } from '../protocol/errors.ts'
import { idText } from '../protocol/process-id.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { DesiredDocument } from './document.ts'
import { ifMatchHolds, topologyEtag } from './etag.ts'
import { plan, type Plan, type Step } from './plan.ts'
import { readTopology } from './read-topology.ts'
import { runSteps, type Done, type Failed, type Numbered, type StepReport } from './run-steps.ts'
import type { SendChange } from './send-step.ts'
import { beforeOf, only, planBack, type NotUndone } from './undo.ts'

export type { NotUndone } from './undo.ts'

/** What an undo did: the steps that brought processes back, and those it could not bring back. */
export type Undone = { undone: Done[]; not_undone: NotUndone[] }
/**
 * Steps that failed: the first one's status, and every failure with its own status and error
 * code; the steps done, and those skipped after their process failed; unless the partial state
 * was kept, what the undo did.
 */
export type StepFailed = {
  status: number
  failed: Failed
  failures: Failed[]
  done: Done[]
  skipped: Numbered[]
} & Partial<Undone>
/** Every step done. */
export type Applied = { done: Done[]; summary: Plan['summary']; ms: number }

/** What an apply is, for its revision: who asked, an apply or a rollback (to which revision). */
export type ApplyNote = { by: string; what: 'apply' | 'rollback'; to?: number }
/** Why an undo runs: a step failed, or the apply was not confirmed in time. */
export type UndoReason = 'failed' | 'expired'
/** What a run of steps is, for the revision its changes make. */
export type RunNote = { by: string; what: 'apply' | 'rollback' | 'undo' | 'expired'; to?: number }

/**
 * Who the journal (and the log) names for the steps of a run: which it was, its id, and who asked
 * for it (a token's client, `local`, or `anonymous` with the peer): `rollback ID by ops`. An undo
 * (a failed step's, or an unconfirmed apply's) is named by who asked for the apply.
 */
export const runBy = (what: string, id: string, by: string | undefined) =>
  `${what === 'expired' ? 'undo' : what} ${id}${by === undefined ? '' : ` by ${by}`}`

/** How an apply goes. */
export type ApplyOptions = {
  ifMatch?: string
  /** Leave the steps done when one fails, as they are (default: undo them). */
  keepPartial?: boolean
  note?: ApplyNote
  /** Told what the processes were before, once planned and before any step is sent. */
  beforeSteps?: (before: DesiredDocument) => Promise<void>
}

type Options = {
  registry: Registry
  hub: EventHub
  log: Logger
  /** Runs one step as its cause (src/topology/send-step.ts). */
  send: SendChange
  /** Resolves when no restore is under way: its steps would change the state an apply plans from. */
  settled?: () => Promise<void>
  /** Says who made the changes of a run's steps, and what they were, until the release is called. */
  note?: (run: string, note: RunNote) => () => void
  /**
   * Remembers what processes that could not be brought back were before, so that they drift
   * from it (the undo is their restore still to make).
   */
  keep?: (before: DesiredDocument, run: string, note: RunNote) => Promise<void>
  /** Why no apply may start now (a confirmation pending), or undefined. */
  refuse?: () => ControllerError | undefined
}

/** Plans and applies desired documents, one apply (or undo) at a time; refusals throw (409, 412, 422). */
export function createApplier({
  registry,
  hub,
  log,
  send,
  settled = async () => {},
  note = () => () => {},
  keep = async () => {},
  refuse = () => undefined,
}: Options) {
  let running: Promise<unknown> | undefined

  async function planFor(desired: DesiredDocument, requestId: string) {
    const live = await readTopology(registry, { cause: { requestId, by: `apply ${requestId}` } })
    const result = plan(live, desired)
    if (!result.ok) {
      const { field, reason } = result.refusal
      throw new ControllerError('PLAN_REFUSED', `refused key(${field}): ${reason}`)
    }
    return { etag: topologyEtag(live), plan: result.plan, live }
  }

  /**
   * Runs steps as run `id`: each one journaled as `who` (runBy) under a request id of its own
   * (`ID.N`), its changes in the run's one revision, and logged as a request is (who, what, its
   * status); each told as it ends.
   */
  const runAs = (steps: Step[], id: string, who: string, onStep: (report: StepReport) => void) => {
    const sendOne = async (step: Step, number: number) => {
      const req = `${id}.${number}`
      const began = performance.now()
      const answer = await send(step, { requestId: req, by: who }, id)
      const { method, path } = step
      const { status } = answer
      const ms = Math.round(performance.now() - began)
      const fields = { req, who, process: idText(step.process), method, path, status, ms }
      if (answer.ok) log.info(fields, 'apply step done')
      else log.warn({ ...fields, code: answer.code }, `apply step failed: ${answer.error}`)
      return answer
    }
    return runSteps(steps, sendOne, onStep)
  }

  /**
   * Brings the processes of `before` back to it: planned from a fresh read, run as `APPLY-undo`.
   * A process that is refused or fails is named, and remembered as it was before (drift).
   */
  async function undoTo(before: DesiredDocument, apply: string, reason: UndoReason, by: string) {
    const id = `${apply}-undo`
    await settled() // a restore that began meanwhile (a process came back) ends first
    const live = await readTopology(registry, { cause: { requestId: id, by: `apply ${id}` } })
    const { plan: back, refused } = planBack(live, before)
    const total = back.steps.length
    hub.publish('apply.undoing', { apply, reason, total })
    const what = reason === 'expired' ? 'expired' : ('undo' as const)
    const release = note(id, { by, what })
    try {
      const run = await runAs(back.steps, id, runBy(what, id, by), (report) =>
        hub.publish('apply.step', { apply, undo: true, ...report }),
      )
      const failedOf = (process: string) => run.failures.find((f) => idText(f.process) === process)
      const failed = [...new Set(run.failures.map((f) => idText(f.process)))].map(
        (process): NotUndone => {
          const { number, why, status, error } = failedOf(process)!
          return { process, reason: `undo step ${number} (${why}): ${status}: ${error.trim()}` }
        },
      )
      const notUndone = [...refused, ...failed]
      if (notUndone.length > 0)
        await keep(
          only(
            before,
            notUndone.map((n) => n.process),
          ),
          id,
          { by, what },
        )
      hub.publish('apply.undone', {
        apply,
        reason,
        undone: run.done.length,
        not_undone: notUndone,
        ms: run.ms,
      })
      const undone: Undone = { undone: run.done, not_undone: notUndone }
      return undone
    } finally {
      release()
    }
  }

  async function run(desired: DesiredDocument, requestId: string, options: ApplyOptions) {
    await settled()
    const { etag, plan: planned, live } = await planFor(desired, requestId)
    const { ifMatch } = options
    if (ifMatch !== undefined && !ifMatchHolds(ifMatch, etag))
      throw new ControllerError(
        'TOPOLOGY_CHANGED',
        `the live configuration changed since that ETag (now ${etag}): plan again`,
      )
    const before = beforeOf(live, desired)
    await options.beforeSteps?.(before)
    const { steps, summary } = planned
    const total = steps.length
    const { by, what, to } = options.note ?? { by: `apply ${requestId}`, what: 'apply' }
    const release = note(requestId, { by, what, ...(to === undefined ? {} : { to }) })
    const who = runBy(what, requestId, options.note?.by)
    const run = await runAs(steps, requestId, who, (report) =>
      hub.publish('apply.step', { apply: requestId, ...report }),
    ).finally(release)
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
    if (options.keepPartial) return result
    return { ...result, ...(await undoTo(before, requestId, 'failed', by)) }
  }

  /** Runs `work` alone: another apply (or undo) meanwhile is refused, or waits (`wait`). */
  async function alone<T>(work: () => Promise<T>, wait = false): Promise<T> {
    while (wait && running) await running.catch(() => undefined)
    if (running)
      throw new ControllerError('APPLY_RUNNING', 'an apply is already running: try again after it')
    const done = work()
    running = done // before any await: a second apply arriving meanwhile sees it
    try {
      return await done
    } finally {
      running = undefined
    }
  }

  return {
    /** POST /v1/topology/plan: the steps, with the ETag of the state they were planned from. */
    async plan(desired: DesiredDocument, requestId: string) {
      const { etag, plan: planned } = await planFor(desired, requestId)
      return { etag, plan: planned }
    },
    /**
     * POST /v1/topology/apply: a failed step stops its process's steps; then the steps done are
     * undone, unless `keepPartial`.
     */
    apply(
      desired: DesiredDocument,
      requestId: string,
      options: ApplyOptions = {},
    ): Promise<Applied | StepFailed> {
      const refused = running ? undefined : refuse()
      if (refused) throw refused
      return alone(() => run(desired, requestId, options))
    },
    /** Undoes apply `apply` (its confirmation expired): once any apply under way is over. */
    undo(before: DesiredDocument, apply: string, by: string): Promise<Undone> {
      return alone(() => undoTo(before, apply, 'expired', by), true)
    },
  }
}
export type Applier = ReturnType<typeof createApplier>
