// What a controller writes to its observed key, from the registry and each process's view: no command.
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import { byId, idText, SECTIONS } from '../protocol/process-id.ts'
import { infoOf } from '../topology/process-config.ts'
import type { TopologyDocument } from '../topology/read-topology.ts'
import { observedTopology, type ApplyProgress, type ObservedInput } from './keys.ts'

/** The live topology as the controller knows it now (GET /v1/topology without the reads). */
export function knownTopology(processes: readonly ProcessHandle[]): TopologyDocument {
  const document: TopologyDocument = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
  for (const process of processes) {
    const { id } = process
    const info = infoOf(id, process.describe().view) ?? { error: 'not read yet' }
    if (id.kind === 'primary') document.primary = info as TopologyDocument['primary']
    else
      ((document[SECTIONS[id.kind]] ??= {}) as Record<string, object>)[String(id.clientId)] = info
  }
  return document
}

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
