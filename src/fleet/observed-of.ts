// What a controller writes to its observed key, from the registry and each process's view: no command.
import type { Registry } from '../actors/registry.ts'
import { byId, idText } from '../protocol/process-id.ts'
import { knownTopology } from '../topology/known-topology.ts'
import { observedTopology, type ApplyProgress, type ObservedInput } from './keys.ts'

/** The observed document of this host now; `drift` and `apply` come from what it remembers. */
export function observedOf(
  registry: Registry,
  drift: number,
  apply: ApplyProgress | undefined,
): ObservedInput {
  const processes = registry.processes().sort((a, b) => byId(a.id, b.id))
  const eras = new Set(processes.map((p) => p.describe().era))
  return {
    topology: observedTopology(knownTopology(processes)),
    eras: (['18.11', '2020'] as const).filter((era) => eras.has(era)),
    processes: processes.map((p) => idText(p.id)),
    drift,
    ...(apply && { apply }),
  }
}
