// Runs a plan's steps (apply, restore): processes in parallel, each one's steps in order, a step
// after the steps it waits for (schedule.ts), and tear down everywhere before building up anywhere.
import { idText } from '../protocol/process-id.ts'
import { stageOf } from './schedule.ts'
import type { Step } from './steps.ts'

/** A step as the runner numbers it: its place in the plan, counted from 1. */
export type Numbered = Step & { number: number }
/** A step done, with its status and how long it took. */
export type Done = Numbered & { status: number; ms: number }
/** A step that failed: its own status and error code (`X-Error-Code`), and what was said. */
export type Failed = Numbered & { status: number; code: string | null; error: string }
/** What became of every step: done, failed, or skipped after an earlier failure of its process. */
export type Run = { done: Done[]; failures: Failed[]; skipped: Numbered[]; ms: number }
/** One finished step, as the events tell it. */
export type StepReport = Pick<Numbered, 'number' | 'method' | 'path' | 'why'> & {
  total: number
  process: string
  ms: number
} & ({ outcome: 'done' } | { outcome: 'failed'; status: number; error: string })

/** What one step was answered: its status and, for a failure, its error code and what was said. */
export type StepAnswer =
  { ok: true; status: number } | { ok: false; status: number; code: string | null; error: string }
/** Runs one step (send-step.ts: through its process's handle, checked as a client's request). */
export type SendStep = (step: Step, number: number) => StepAnswer | Promise<StepAnswer>
/** Whether a step may go now that its turn came; false skips it (a restore's readers elsewhere). */
export type Gate = (step: Step) => boolean | Promise<boolean>

/**
 * Runs the steps stage by stage; within a stage, each process's steps in order, the processes in
 * parallel, and a step once the steps it waits for (`after`) are done. A failed step stops the
 * rest of its process's steps (they are skipped), and so does a step whose waited-for step was not
 * done (a sender whose reader failed is never started), or that `gate` holds back; the other
 * processes go on to the end. `onStep` is told of each step as it ends.
 */
export async function runSteps(
  steps: Step[],
  send: SendStep,
  onStep: (report: StepReport) => void,
  gate: Gate = () => true,
): Promise<Run> {
  const started = performance.now()
  const total = steps.length
  const run: Run = { done: [], failures: [], skipped: [], ms: 0 }
  const failed = new Set<string>()
  const numbered = steps.map((step, i) => ({ ...step, number: i + 1 }))
  // Whether each step was done, once it is known (false: failed or skipped).
  const ended = numbered.map(() => {
    let tell = (_: boolean) => {}
    const known = new Promise<boolean>((resolve) => (tell = resolve))
    return { known, tell }
  })
  // Only a step before it can be waited for: the schedule puts it there, and a plan made
  // otherwise must not hang the runner.
  const waitsOf = (step: Numbered) =>
    (step.after?.steps ?? [])
      .filter((n) => n >= 1 && n < step.number && stageOf(numbered[n - 1]!) <= stageOf(step))
      .map((n) => ended[n - 1]!.known)
  for (const stage of [0, 1, 2]) {
    const queues = new Map<string, Numbered[]>()
    for (const step of numbered) {
      if (stageOf(step) !== stage) continue
      const process = idText(step.process)
      queues.set(process, [...(queues.get(process) ?? []), step])
    }
    const one = async (process: string, step: Numbered) => {
      const { number, ...plain } = step
      const begun = performance.now()
      const answer = await (async () => send(plain, number))().catch(
        (error: Error): StepAnswer => ({
          ok: false,
          status: 500,
          code: 'INTERNAL',
          error: error.message,
        }),
      )
      const ms = Math.round(performance.now() - begun)
      const { method, path, why } = step
      const report = { number, total, process, method, path, why, ms }
      const { status } = answer
      if (answer.ok) {
        run.done.push({ ...step, status, ms })
        onStep({ ...report, outcome: 'done' })
        return true
      }
      const { code, error } = answer
      run.failures.push({ ...step, status, code, error })
      onStep({ ...report, outcome: 'failed', status, error })
      return false
    }
    await Promise.all(
      [...queues].map(async ([process, queue]) => {
        for (const step of queue) {
          const waited = failed.has(process) ? [] : await Promise.all(waitsOf(step))
          const go = !failed.has(process) && !waited.includes(false) && (await gate(step))
          const ok = go && (await one(process, step))
          if (!go) run.skipped.push(step)
          if (!ok) failed.add(process)
          ended[step.number - 1]!.tell(ok)
        }
      }),
    )
  }
  const byNumber = (a: Numbered, b: Numbered) => a.number - b.number
  run.done.sort(byNumber)
  run.failures.sort(byNumber)
  run.skipped.sort(byNumber)
  run.ms = Math.round(performance.now() - started)
  return run
}
