// The topology document: every connected process's state, read through the coalesced status.
import { askStatus } from '../actors/ask.ts'
import type { JobOptions } from '../actors/job.ts'
import type { Registry } from '../actors/registry.ts'
import type { MirrorInfo, NfvInfo, PcapInfo, PrimaryStatus, VfInfo } from '../protocol/bodies.ts'

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

const SECTIONS = { nfv: 'nfvs', vf: 'vfs', mirror: 'mirrors', pcap: 'pcaps' } as const

/** One `status` per process, all in parallel; a failed read becomes `{"error": ...}`. */
export async function readTopology(
  registry: Registry,
  options?: JobOptions,
): Promise<TopologyDocument> {
  const entries = registry.entries().sort((a, b) => (a.clientId ?? -1) - (b.clientId ?? -1))
  const states = await Promise.all(
    entries.map((entry) =>
      askStatus(entry.connection, entry.kind, options).catch((error: Error): Unreadable => ({
        error: error.message,
      })),
    ),
  )
  const document: TopologyDocument = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
  entries.forEach((entry, i) => {
    const state = states[i]!
    if (entry.kind === 'primary') document.primary = state as TopologyDocument['primary']
    else
      ((document[SECTIONS[entry.kind]] ??= {}) as Record<string, object>)[String(entry.clientId)] =
        state
  })
  return document
}
