// Drift: the steps that would bring a process back to its remembered configuration, planned from
// the controller's view of it (its last status read and every change since): no command is sent.
import { describe } from '../actors/describe.ts'
import type { Registry } from '../actors/registry.ts'
import type { ProcessKey, RememberedConfig, RememberedDocument } from '../store/store.ts'
import { plan, type PlanResult } from './plan.ts'
import { desiredOf, documentOf, entriesOf, infoOf, processName, refOf } from './process-config.ts'
import type { ProcessRef } from './process-config.ts'
import type { TopologyDocument } from './read-topology.ts'

/** One process's drift: the plan's steps and summary (none when in sync), or why it cannot be. */
export type Drift = PlanResult

/**
 * The live document the planner needs for some processes: each as its view shows it (or why it
 * cannot be read), and the primary's status for the rings it has created.
 */
export function liveOf(registry: Registry, refs: readonly ProcessRef[]): TopologyDocument {
  const document: TopologyDocument = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
  const entries = registry.entries()
  const primary = entries.find((e) => e.kind === 'primary')
  const view = primary && describe(primary.connection).view
  if (view?.kind === 'primary' && view.status) document.primary = view.status
  for (const ref of refs) {
    const entry = entries.find((e) => e.kind === ref.kind && e.clientId === ref.clientId)
    const info = entry && infoOf(ref, describe(entry.connection).view)
    const one = documentOf(ref, info ?? { error: entry ? 'not read yet' : 'not connected' })
    if (ref.kind === 'primary') document.primary = one.primary
    for (const section of ['nfvs', 'vfs', 'mirrors'] as const)
      Object.assign(document[section], one[section])
  }
  return document
}

/** The plan from a process's view to its remembered configuration. */
export const driftOf = (registry: Registry, key: ProcessKey, config: RememberedConfig): Drift =>
  plan(liveOf(registry, [refOf(key)]), desiredOf([[key, config]]))

/** Whether a process's view matches its remembered configuration (a refusal does not). */
export const inSync = (drift: Drift) => drift.ok && drift.plan.steps.length === 0

type Report = { steps: unknown[]; summary: object } | { refused: { field: string; reason: string } }
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
    const report: Report = drift.ok ? drift.plan : { refused: drift.refusal }
    if (key.section === 'primary') out.primary = report
    else out[key.section][String(key.clientId)] = report
  }
  return out
}

/** Each remembered, connected process's drift in steps (or refused), by name, for the metrics. */
export function driftSamples(registry: Registry, remembered: RememberedDocument) {
  const connected = new Set(registry.entries().map((e) => processName(e)))
  return entriesOf(remembered).flatMap(([key, config]) => {
    const process = processName(refOf(key))
    if (!connected.has(process)) return []
    const drift = driftOf(registry, key, config)
    return [
      drift.ok ? { process, steps: drift.plan.steps.length } : { process, refused: true as const },
    ]
  })
}
