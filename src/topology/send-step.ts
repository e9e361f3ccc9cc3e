// One step of a plan (apply, restore) asked of its process through its handle, as a client's
// request would be: the same table, the same checks, a cause that names who asked; and, like a
// request's, its changes remembered and journaled before the step counts as done.
import type { Logger } from 'pino'
import type { ChangeLedger } from '../actors/change-ledger.ts'
import type { Registry } from '../actors/registry.ts'
import type { Cause, Settled } from '../actors/settled.ts'
import { ControllerError, type ErrorCode } from '../protocol/errors.ts'
import { askingOf } from '../requests/change.ts'
import { changeOf } from '../requests/changes.ts'
import type { JournaledRequest } from '../store/store.ts'
import type { StepAnswer } from './run-steps.ts'
import type { Step } from './steps.ts'

/**
 * Remembers one cause's changes with its journal entry, resolving once both are durable
 * (src/remember/memory.ts); `restoring`: a restore's step, which leaves what is remembered as it
 * is; `group`: the run (an apply, its undo) whose steps make one revision together.
 */
export type Remember = (
  changes: readonly Settled[],
  request: JournaledRequest,
  restoring: boolean,
  group: string | undefined,
) => Promise<void>

/** Runs one step for `cause` (its request id, who asked), of run `group` if any; never throws. */
export type SendChange = (step: Step, cause: Cause, group?: string) => Promise<StepAnswer>

type Options = {
  registry: Registry
  /** Collects each cause's changes from the change stream (the one the request path uses). */
  ledger: ChangeLedger
  /** The HTTP status a client's request failing with this code is answered. */
  statusOf: (code: ErrorCode) => number
  log: Logger
  /** Without it (--state-dir none) nothing is remembered or journaled. */
  remember?: Remember
  /** Told each journaled step once it is durable (the event stream's `journal.entry`). */
  onJournaled?: (request: JournaledRequest) => void
}

/**
 * Sends steps as their cause: finds the process (404), asks the change the step's action names
 * (src/requests/changes.ts: 405, 400 naming the field, the command), and answers as the route
 * would have: 204, or the failure's status and code. A step that changed something is remembered
 * with its journal entry first; a commit that fails is a failed step (500 COMMIT_FAILED).
 */
export function stepSender({ registry, ledger, statusOf, log, remember, onJournaled }: Options) {
  const failure = (error: unknown): StepAnswer => {
    if (error instanceof ControllerError)
      return { ok: false, status: statusOf(error.code), code: error.code, error: error.message }
    log.error({ err: error }, 'unexpected error while running a step')
    return { ok: false, status: 500, code: null, error: 'internal error in the controller' }
  }

  const sendStep: SendChange = async (step, cause, group) => {
    ledger.begin(cause)
    let answer: StepAnswer
    let changes: Settled[]
    try {
      const asking = askingOf(registry, step.process, { cause })
      const change = changeOf(step.process.kind, step.action)
      await change.ask(asking, { component: step.component, body: () => step.body }, step.action)
      answer = { ok: true, status: 204 }
    } catch (error) {
      answer = failure(error)
    } finally {
      changes = ledger.end(cause)
    }
    if (!remember || changes.length === 0) return answer
    const { method, path, body } = step
    const request: JournaledRequest = {
      by: cause.by,
      requestId: cause.requestId,
      method,
      path,
      ...(body === undefined ? {} : { body }),
      status: answer.status,
    }
    try {
      await remember(changes, request, cause.restoring ?? false, group)
    } catch (error) {
      const message = `the change was made, but could not be remembered: ${(error as Error).message}`
      return { ok: false, status: statusOf('COMMIT_FAILED'), code: 'COMMIT_FAILED', error: message }
    }
    onJournaled?.(request)
    return answer
  }
  return sendStep
}
