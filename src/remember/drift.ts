// Drift: the steps that would bring a process back to its remembered configuration, planned from
// the controller's view of it (its last status read and every change since): no command is sent.
import type { Registry } from '../actors/registry.ts'
import { idText, PRIMARY, type ProcessId } from '../protocol/process-id.ts'
import type { ProcessKey, RememberedConfig, RememberedDocument } from '../store/store.ts'
import { plan, shownPlan, type PlanResult, type ShownPlan } from '../topology/plan.ts'
import { desiredOf, documentOf, entriesOf, idOfKey, infoOf } from '../topology/process-config.ts'
import type { TopologyDocument } from '../topology/read-topology.ts'

/** One process's drift: the plan's steps and summary (none when in sync), or why it cannot be. */
export type Drift = PlanResult

/**
 * The live document the planner needs for some processes: each as its view shows it (or why it
 * cannot be read), and the primary's status for the rings it has created.
 */
export function liveOf(registry: Registry, ids: readonly ProcessId[]): TopologyDocument {
  const document: TopologyDocument = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
  const view = registry.has(PRIMARY) ? registry.find(PRIMARY).describe().view : undefined
  if (view?.kind === 'primary' && view.status) document.primary = view.status
  for (const id of ids) {
    const connected = registry.has(id)
    const info = connected ? infoOf(id, registry.find(id).describe().view) : undefined
    const one = documentOf(id, info ?? { error: connected ? 'not read yet' : 'not connected' })
    if (id.kind === 'primary') document.primary = one.primary
    for (const section of ['nfvs', 'vfs', 'mirrors'] as const)
      Object.assign(document[section], one[section])
  }
  return document
}

/** The plan from a process's view to its remembered configuration. */
export const driftOf = (registry: Registry, key: ProcessKey, config: RememberedConfig): Drift =>
  plan(liveOf(registry, [idOfKey(key)]), desiredOf([[key, config]]))

/** Whether a process's view matches its remembered configuration (a refusal does not). */
export const inSync = (drift: Drift) => drift.ok && drift.plan.steps.length === 0

type Report = ShownPlan | { refused: { field: string; reason: string } }
/** GET /v1/topology/drift: per remembered process, in the remembered document's shape. */
export type DriftDocument = {
  primary?: Report
  nfvs: Record<string, Report>
  vfs: Record<string, Report>
  mirrors: Record<string, Report>
}

/** Every remembered process's drift, keyed as the remembered document is. */
export function driftDocument(registry: Registry, remembered: RememberedDocument): DriftDocument {
  const out: DriftDocument = { nfvs: {}, vfs: {}, mirrors: {} }
  for (const [key, config] of entriesOf(remembered)) {
    const drift = driftOf(registry, key, config)
    const report: Report = drift.ok ? shownPlan(drift.plan) : { refused: drift.refusal }
    if (key.section === 'primary') out.primary = report
    else out[key.section][String(key.clientId)] = report
  }
  return out
}

/** Each remembered, connected process's drift in steps (or refused), by name, for the metrics. */
export function driftSamples(registry: Registry, remembered: RememberedDocument) {
  return entriesOf(remembered).flatMap(([key, config]) => {
    const id = idOfKey(key)
    if (!registry.has(id)) return []
    const process = idText(id)
    const drift = driftOf(registry, key, config)
    return [
      drift.ok ? { process, steps: drift.plan.steps.length } : { process, refused: true as const },
    ]
  })
}
