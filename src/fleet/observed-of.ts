// What a controller writes to its observed key, from the registry and each process's view: no command.
import { describe } from '../actors/describe.ts'
import type { ProcessEntry, Registry } from '../actors/registry.ts'
import type { ProcessView } from '../state/process-view.ts'
import type { TopologyDocument } from '../topology/read-topology.ts'
import { observedTopology, type ApplyProgress, type ObservedInput } from './keys.ts'

const SECTIONS = { nfv: 'nfvs', vf: 'vfs', mirror: 'mirrors', pcap: 'pcaps' } as const

/** What the process's own GET would answer, as its view shows it; an error until it was read. */
function infoOf(clientId: number | undefined, view: ProcessView | undefined): object {
  const id = { 'client-id': clientId ?? 0 }
  const unread = { error: 'not read yet' }
  switch (view?.kind) {
    case 'primary':
      return view.status ?? unread
    case 'nfv': {
      const { status, ports, patches } = view
      return status && ports && patches ? { ...id, status, ports, patches } : unread
    }
    case 'vf':
    case 'mirror': {
      const { components, classifier_table } = view
      if (!components || (view.kind === 'vf' && !classifier_table)) return unread
      const table = view.kind === 'vf' ? { classifier_table } : {}
      return { ...id, ports: view.ports ?? [], components, ...table }
    }
    default:
      return view?.info ?? unread
  }
}

/** The live topology as the controller knows it now (GET /v1/topology without the reads). */
export function knownTopology(entries: ProcessEntry[]): TopologyDocument {
  const document: TopologyDocument = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
  for (const { kind, clientId, connection } of entries) {
    const info = infoOf(clientId, describe(connection).view)
    if (kind === 'primary') document.primary = info as TopologyDocument['primary']
    else ((document[SECTIONS[kind]] ??= {}) as Record<string, object>)[String(clientId)] = info
  }
  return document
}

/** `primary`, `nfv:1`, `vf:2`, ...: each connected process, the primary first, then by id. */
const nameOf = ({ kind, clientId }: ProcessEntry) =>
  clientId === undefined ? kind : `${kind}:${clientId}`

/** The observed document of this host now; `drift` and `apply` come from what it remembers. */
export function observedOf(
  registry: Registry,
  drift: number,
  apply: ApplyProgress | undefined,
): ObservedInput {
  const entries = registry.entries().sort((a, b) => (a.clientId ?? -1) - (b.clientId ?? -1))
  const eras = new Set(entries.map((e) => describe(e.connection).era))
  return {
    topology: observedTopology(knownTopology(entries)),
    eras: (['18.11', '2020'] as const).filter((era) => eras.has(era)),
    processes: entries.map(nameOf),
    drift,
    ...(apply && { apply }),
  }
}
