// The configuration part of a topology document: what plan/apply can set, in the desired-document
// schema, without counters, lcores, or what a process only reports. Pure.
import type {
  ClassifierEntry,
  ComponentEntry,
  MirrorInfo,
  NfvInfo,
  VfInfo,
} from '../protocol/bodies.ts'
import type { TopologyDocument, Unreadable } from './read-topology.ts'

/** A named component with its ports per direction, as the vf or mirror reports them. */
export type ConfiguredComponent = Required<Omit<ComponentEntry, 'name'>> & { name: string }
/** An nfv's configuration: Running/Idle, its ports, its patches. */
export type NfvConfiguration = Pick<NfvInfo, 'status' | 'ports' | 'patches'>
/** A vf's configuration: its components and its classifier table. */
export type VfConfiguration = {
  components: ConfiguredComponent[]
  classifier_table: ClassifierEntry[]
}
/** A mirror's configuration: its components. */
export type MirrorConfiguration = { components: ConfiguredComponent[] }

/**
 * The configuration of every process of a topology document, a desired document that plans to no
 * step against the state it was taken from. Per kind:
 * - nfv: `status`, `ports`, `patches` (not `client-id`, the key already says it, nor lcores);
 * - vf: the named components (their core, type and port objects with vlans) and the classifier
 *   table; not the unused cores, `ports` (what the vf can reach) or `master-lcore`;
 * - mirror: the named components;
 * - primary: nothing. An 18.11 primary has nothing to set; a 2020 primary's forwarder ports,
 *   patches and pipes are set through its own routes, and plan/apply does not take them (the
 *   desired document accepts a `primary` member and ignores it): when the planner learns them,
 *   this is where they join;
 * - pcap: nothing (a capture is started and stopped, not planned).
 * A process that could not be read keeps its `{"error": ...}`: planning it is refused, never a
 * silent no-op.
 */
export function configurationOf(document: TopologyDocument) {
  return {
    nfvs: each(document.nfvs, nfvConfiguration),
    vfs: each(document.vfs, vfConfiguration),
    mirrors: each(document.mirrors, (mirror: MirrorInfo) => ({
      components: named(mirror.components),
    })),
  }
}
/** The configuration part of a topology document. */
export type Configuration = ReturnType<typeof configurationOf>

const nfvConfiguration = ({ status, ports, patches }: NfvInfo): NfvConfiguration => ({
  status,
  ports,
  patches,
})

const vfConfiguration = (vf: VfInfo): VfConfiguration => ({
  components: named(vf.components),
  classifier_table: vf.classifier_table,
})

const named = (entries: ComponentEntry[]): ConfiguredComponent[] =>
  entries.flatMap(({ name, core, type, rx_port, tx_port }) =>
    name === undefined
      ? []
      : [{ name, core, type, rx_port: rx_port ?? [], tx_port: tx_port ?? [] }],
  )

function each<T extends object, C>(
  section: Record<string, T | Unreadable>,
  configuration: (state: T) => C,
): Record<string, C | Unreadable> {
  const out: Record<string, C | Unreadable> = {}
  for (const [id, state] of Object.entries(section))
    out[id] = 'error' in state ? { error: state.error } : configuration(state)
  return out
}
