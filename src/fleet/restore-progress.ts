// A restore of a desired revision, told as the observed key's apply progress (for `fleet apply`).
import type { EventHub } from '../observe/event-hub.ts'
import type { Refusal } from '../topology/plan.ts'
import type { Run } from '../topology/run-steps.ts'
import type { ApplyProgress } from './keys.ts'

type Step = ApplyProgress['steps'][number]

/** Follows the restore events of `request` until `end` tells how the restore came out. */
export function restoreProgress(
  hub: EventHub,
  request: string,
  revision: number,
  report: (progress: ApplyProgress) => void,
) {
  let total = 0
  const steps: Step[] = []
  const applying = () => report({ revision, state: 'applying', total, steps: [...steps] })
  const unsubscribe = hub.subscribe({
    push({ type, data }) {
      if (data.restore !== request) return
      if (type === 'restore.started') total += Number(data.total)
      if (type !== 'restore.step') return
      const { why, ms, outcome } = data as Step
      steps.push({ why, ms, outcome })
      applying()
    },
    close: () => undefined,
  })
  applying()
  return {
    /** The restore's result: converged, or its first failed step, or its first refusal. */
    end(run: Run & { refused: Record<string, Refusal> }) {
      const [failure] = run.failures
      const [refusal] = Object.values(run.refused)
      const total = run.done.length + run.failures.length + run.skipped.length
      const base = { revision, total, steps: [...steps] }
      if (failure) {
        const { number, method, path, body, why, status, error } = failure
        const failed = { number, method, path, why, status, error, ...(body && { body }) }
        report({ ...base, state: 'failed', failed })
      } else if (refusal) report({ ...base, state: 'refused', refused: refusal })
      else report({ ...base, state: 'converged' })
    },
    close: unsubscribe,
  }
}
