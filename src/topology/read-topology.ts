// The topology document: every connected process's state, read through the coalesced status.
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { AskOptions } from '../actors/settled.ts'
import type { Registry } from '../actors/registry.ts'
import type { MirrorInfo, NfvInfo, PcapInfo, PrimaryStatus, VfInfo } from '../protocol/bodies.ts'
import { statusOf } from '../protocol/kinds/status.ts'
import { byId, SECTIONS } from '../protocol/process-id.ts'

/** A process that could not be read within the command timeout. */
export type Unreadable = { error: string }

/**
 * GET /v1/topology: keyed by client id, each value exactly what the process's own GET endpoint
 * answers (the primary's is its status). A kind with no process is an empty object.
 */
export type TopologyDocument = {
  primary: PrimaryStatus | Unreadable | Record<string, never>
  nfvs: Record<string, NfvInfo | Unreadable>
  vfs: Record<string, VfInfo | Unreadable>
  mirrors: Record<string, MirrorInfo | Unreadable>
  /** Only when a pcap (2019 and later) is connected: an 18.11 document stays as it was. */
  pcaps?: Record<string, PcapInfo | Unreadable>
}

/** The processes served now, in the document's order: the primary, then by kind and client id. */
export const documentOrder = (registry: Registry): ProcessHandle[] =>
  registry.processes().sort((a, b) => byId(a.id, b.id))

/** A failed read, as the document shows it. */
export const unreadable = (error: Error): Unreadable => ({ error: error.message })

/** One `status` per process, all in parallel; a failed read becomes `{"error": ...}`. */
export async function readTopology(
  registry: Registry,
  options?: AskOptions,
): Promise<TopologyDocument> {
  const processes = documentOrder(registry)
  const states = await Promise.all(
    processes.map((process) => process.ask(statusOf(process.id.kind), options).catch(unreadable)),
  )
  return documentOf(processes, states)
}

/** The document of `processes` (in documentOrder) and what each one's read gave. */
export function documentOf(
  processes: readonly ProcessHandle[],
  states: readonly (object | Unreadable)[],
): TopologyDocument {
  const document: TopologyDocument = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
  processes.forEach(({ id }, i) => {
    const state = states[i]!
    if (id.kind === 'primary') document.primary = state as TopologyDocument['primary']
    else
      ((document[SECTIONS[id.kind]] ??= {}) as Record<string, object>)[String(id.clientId)] = state
  })
  return document
}
