// The live topology as the controller knows it now, from each process's view: no command sent.
import type { ProcessHandle } from '../actors/process-handle.ts'
import { SECTIONS } from '../protocol/process-id.ts'
import { infoOf } from './process-config.ts'
import type { TopologyDocument } from './read-topology.ts'

/** GET /v1/topology without the reads: each process as its last read and every change since show it. */
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
