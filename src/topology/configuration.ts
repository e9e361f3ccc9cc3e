// The configuration part of a topology document: what plan/apply can set, in the desired-document
// schema, without counters, lcores, or what a process only reports. Pure.
import type {
  ClassifierEntry,
  ComponentEntry,
  MirrorInfo,
  NfvInfo,
  VfInfo,
} from '../protocol/bodies.ts'
import type { ForwarderState } from './plan-forwarder.ts'
import { isStatus, readPrimary, type Pipe } from './primary-forwarder.ts'
import type { TopologyDocument, Unreadable } from './read-topology.ts'

/** A named component with its ports per direction, as the vf or mirror reports them. */
export type ConfiguredComponent = Required<Omit<ComponentEntry, 'name'>> & { name: string }
/** An nfv's configuration: Running/Idle, its ports, its patches. */
export type NfvConfiguration = Pick<NfvInfo, 'status' | 'ports' | 'patches'>
/** A 2020 primary's configuration: its forwarder (Running/Idle, ports, patches) and its pipes. */
export type PrimaryConfiguration = { forwarder: ForwarderState; pipes: Pipe[] }
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
 * - primary: a 2020 primary's forwarder (`status` in the spec's words, `ports` without `udf`,
 *   `patches`) and `pipes`, when its status shows a forwarder; nothing for one without (18.11, or
 *   a 2020 primary whose forwarder thread does not run), nor for none;
 * - pcap: nothing (a capture is started and stopped, not planned).
 * A process that could not be read keeps its `{"error": ...}`: planning it is refused, never a
 * silent no-op.
 */
export function configurationOf(document: TopologyDocument) {
  const primary = primaryConfiguration(document.primary)
  return {
    ...(primary === undefined ? {} : { primary }),
    nfvs: each(document.nfvs, nfvConfiguration),
    vfs: each(document.vfs, vfConfiguration),
    mirrors: each(document.mirrors, (mirror: MirrorInfo) => ({
      components: named(mirror.components),
    })),
  }
}
/** The configuration part of a topology document. */
export type Configuration = ReturnType<typeof configurationOf>

function primaryConfiguration(
  primary: TopologyDocument['primary'],
): PrimaryConfiguration | Unreadable | undefined {
  if (!isStatus(primary)) return 'error' in primary ? { error: primary.error } : undefined
  const shown = readPrimary(primary)
  if ('error' in shown) return { error: shown.error }
  return shown.forwarder && { forwarder: shown.forwarder, pipes: shown.pipes }
}

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
