// Undoing an apply, by planning: the document the applied processes had before (from the live state
// the apply was planned from), and the plan back to it from the live state now. Pure.
import { idText } from '../protocol/process-id.ts'
import { configurationOf } from './configuration.ts'
import type { DesiredDocument } from './document.ts'
import { plan, type Plan } from './plan.ts'
import { plansPrimary } from './plan-primary.ts'
import { desiredOf, entriesOf, idOfKey } from './process-config.ts'
import type { TopologyDocument } from './read-topology.ts'

/** A process that could not be brought back, and why (it then drifts from what is remembered). */
export type NotUndone = { process: string; reason: string }

const SECTIONS = ['nfvs', 'vfs', 'mirrors'] as const

/**
 * The configuration, in `live`, of every process `desired` plans: planned against the state after
 * the apply, it undoes whatever of the apply was done, whichever step failed.
 */
export function beforeOf(live: TopologyDocument, desired: DesiredDocument): DesiredDocument {
  const config = configurationOf(live)
  const before: Record<string, unknown> = {}
  if (plansPrimary(desired.primary) && config.primary) before.primary = config.primary
  for (const section of SECTIONS) {
    const was: Record<string, unknown> = config[section]
    const wanted = Object.keys(desired[section] ?? {}).filter((id) => was[id] !== undefined)
    before[section] = Object.fromEntries(wanted.map((id) => [id, was[id]]))
  }
  return before
}

/** The processes a document names, as the journal names them (`vf:2`). */
export const processesOf = (document: DesiredDocument): string[] =>
  entriesOf(document).map(([key]) => idText(idOfKey(key)))

/** The part of a document about these processes. */
export function only(document: DesiredDocument, processes: readonly string[]): DesiredDocument {
  const kept = entriesOf(document).filter(([key]) => processes.includes(idText(idOfKey(key))))
  return desiredOf(kept)
}

/**
 * The plan from `live` back to `before`. A process the planner refuses (one that cannot be read
 * now, say) is left out and named with the reason; the others are planned together.
 */
export function planBack(
  live: TopologyDocument,
  before: DesiredDocument,
): { plan: Plan; refused: NotUndone[] } {
  const whole = plan(live, before)
  if (whole.ok) return { plan: whole.plan, refused: [] }
  const refused: NotUndone[] = []
  const kept: string[] = []
  for (const process of processesOf(before)) {
    const alone = plan(live, only(before, [process]))
    if (alone.ok) kept.push(process)
    else refused.push({ process, reason: `${alone.refusal.field}: ${alone.refusal.reason}` })
  }
  const rest = plan(live, only(before, kept))
  if (rest.ok) return { plan: rest.plan, refused }
  const reason = `${rest.refusal.field}: ${rest.refusal.reason}`
  return {
    plan: { steps: [], summary: {}, warnings: [] },
    refused: [...refused, ...kept.map((process) => ({ process, reason }))],
  }
}
