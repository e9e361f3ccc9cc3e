// The pieces a plan is made of, shared by the per-process planners.

/** One request of this REST API, with the reason it is in the plan. */
export type Step = {
  method: 'POST' | 'PUT' | 'DELETE'
  path: string
  body?: Record<string, unknown>
  /** What the step does, as counted in the summary (`component.start`, `port.attach`, ...). */
  action: string
  why: string
}
/** A step and its place in the design note's order (1 tear down ... 11 start forwarding). */
export type Phased = { phase: number; step: Step }
/** The primary's port adds: after every tear-down (6), before a secondary builds on a ring or pipe (7). */
export const PRIMARY_BUILD = 6.5
/** The steps in order, and how many of each `action`. */
export type Plan = { steps: Step[]; summary: Record<string, number> }
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
