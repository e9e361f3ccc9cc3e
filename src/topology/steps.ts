// The pieces a plan is made of, shared by the per-process planners.
import type { ProcessId } from '../protocol/process-id.ts'

/**
 * One change asked of one process, with the reason it is in the plan: its process, its action and
 * body (with the process's kind, its entry of src/requests/changes.ts, which checks and sends it
 * as it would a client's request), and the REST request that asks the same (shown, never sent).
 */
export type Step = {
  method: 'POST' | 'PUT' | 'DELETE'
  path: string
  body?: Record<string, unknown>
  /** What the step does, as counted in the summary (`component.start`, `port.attach`, ...). */
  action: string
  why: string
  process: ProcessId
  /** The component a stop, an attach or a detach is about (its path's `{name}`). */
  component?: string
  /** The steps it waits for besides the one before it of its own process (schedule.ts). */
  after?: After
  /**
   * The rings it makes packets flow into, which need a reader (schedule.ts): a restore waits for
   * the other processes remembered to read them. Not shown.
   */
  sends?: string[]
}
/** Steps of the same plan (by number, from 1) that a step waits for, and why. */
export type After = { steps: number[]; why: string }

/** A step as answers show it: the REST request that does the same (it names the process), and why. */
export type Shown<T extends Step = Step> = Omit<T, 'process' | 'component' | 'sends'>
/** The step as answers show it. */
export function shownStep<T extends Step>(step: T): Shown<T> {
  const { process: _, component: __, sends: ___, ...shown } = step
  return shown
}
/** A step and its place in the design note's order (1 tear down ... 11 start forwarding). */
export type Phased = { phase: number; step: Step }
/** The primary's port adds: after every tear-down (6), before a secondary builds on a ring or pipe (7). */
export const PRIMARY_BUILD = 6.5
/**
 * The steps in the order they run, how many of each `action`, and the rings the configuration it
 * leads to sends into while nothing reads them (schedule.ts).
 */
export type Plan = { steps: Step[]; summary: Record<string, number>; warnings: Warning[] }
/** A plan as answers show it (POST /v1/topology/plan, GET /v1/topology/drift). */
export type ShownPlan = { steps: Shown[]; summary: Record<string, number>; warnings?: Warning[] }
/** The steps and summary as answers show them (the warnings are the plan route's to show). */
export const shownPlan = ({ steps, summary }: Plan): ShownPlan => ({
  steps: steps.map(shownStep),
  summary,
})
/** A port a configuration sends into that nothing reads, or a loop the order breaks, and why. */
export type Warning = { port: string; why: string }
/** A desired state a process would refuse: the document's field and why. */
export type Refusal = { field: string; reason: string }
/** What the planner answers. */
export type PlanResult = { ok: true; plan: Plan } | { ok: false; refusal: Refusal }

/** Thrown inside the planner, turned into a Refusal by `plan`. */
export class Refused extends Error {
  readonly field: string
  constructor(field: string, reason: string) {
    super(reason)
    this.field = field
  }
}

/** What a process's plan may need to know about the others: the rings the primary created. */
export type Context = { rings?: Set<number> }
