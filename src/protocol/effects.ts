// What each command does to a process, as data: the one description of a command that the view,
// the event stream and the metrics all derive from.
import type { MirrorInfo, NfvInfo, PcapInfo, PrimaryStatus, ProcessKind, VfInfo } from './bodies.ts'
import type { Shown } from './release.ts'
import type { Dir, VlanTag } from './tokens.ts'

/** A status read, with what it saw and what it showed of the process's release. */
export type Observation =
  | { kind: 'primary.read'; status: PrimaryStatus; shows: Shown }
  | { kind: 'nfv.read'; info: NfvInfo; shows: Shown }
  | { kind: 'vf.read'; info: VfInfo; shows: Shown }
  | { kind: 'mirror.read'; info: MirrorInfo; shows: Shown }
  | { kind: 'pcap.read'; info: PcapInfo; shows: Shown }

/** A change a process made on request. */
export type Change =
  | { kind: 'primary.clear' }
  | { kind: 'exit' }
  | { kind: 'primary.changed'; command: string } // a 2020 primary's forwarder, launch or flow rules
  | { kind: 'pcap.start' }
  | { kind: 'pcap.stop' }
  | { kind: 'nfv.forward' }
  | { kind: 'nfv.stop' }
  | { kind: 'port.add'; port: string }
  | { kind: 'port.del'; port: string }
  | { kind: 'patch.set'; src: string; dst: string }
  | { kind: 'patch.reset' }
  | { kind: 'component.start'; name: string; core: number; type: string }
  | { kind: 'component.stop'; name: string }
  | { kind: 'port.attach'; component: string; port: string; dir: Dir; vlan?: VlanTag }
  | { kind: 'port.detach'; component: string; port: string; dir: Dir }
  | ClassifierChange

/** A classifier table entry set or unset; `vlan` only for a `vlan` entry. */
export type ClassifierChange = {
  kind: 'classifier.add' | 'classifier.del'
  type: 'mac' | 'vlan'
  mac: string
  port: string
  vlan?: number
}

export type Effect = Observation | Change

const ALL = ['primary', 'nfv', 'vf', 'mirror', 'pcap'] as const
/**
 * The kinds of process each effect comes from: complete at compile time, so a new effect fails to
 * compile until it is placed here, then in each of its kinds' reducers (`EffectOf`).
 */
export const EFFECT_KINDS = {
  'primary.read': ['primary'],
  'nfv.read': ['nfv'],
  'vf.read': ['vf'],
  'mirror.read': ['mirror'],
  'pcap.read': ['pcap'],
  exit: ALL,
  'primary.clear': ['primary'],
  'primary.changed': ['primary'],
  'pcap.start': ['pcap'],
  'pcap.stop': ['pcap'],
  'nfv.forward': ['nfv'],
  'nfv.stop': ['nfv'],
  'port.add': ['primary', 'nfv'],
  'port.del': ['primary', 'nfv'],
  'patch.set': ['primary', 'nfv'],
  'patch.reset': ['primary', 'nfv'],
  'component.start': ['vf', 'mirror'],
  'component.stop': ['vf', 'mirror'],
  'port.attach': ['vf', 'mirror'],
  'port.detach': ['vf', 'mirror'],
  'classifier.add': ['vf'],
  'classifier.del': ['vf'],
} as const satisfies Record<Effect['kind'], readonly ProcessKind[]>
type Kinds = typeof EFFECT_KINDS
/** The effects a kind of process can have. */
export type EffectOf<K extends ProcessKind> = Extract<
  Effect,
  { kind: { [E in keyof Kinds]: K extends Kinds[E][number] ? E : never }[keyof Kinds] }
>
/** Whether a process of this kind can have this effect. */
export const isEffectOf = <K extends ProcessKind>(kind: K, effect: Effect): effect is EffectOf<K> =>
  (EFFECT_KINDS[effect.kind] as readonly ProcessKind[]).includes(kind)

/** The end of every switch over effects: an effect added to the union fails to compile there. */
export function unhandled(effect: never): never {
  throw new Error(`unhandled effect ${JSON.stringify(effect)}`)
}
