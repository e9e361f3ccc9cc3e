// What each command does to a process, as data: the one description of a command that the view,
// the event stream and the metrics all derive from.
import type { MirrorInfo, NfvInfo, PcapInfo, PrimaryStatus, VfInfo } from './bodies.ts'
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

/** The end of every switch over effects: an effect added to the union fails to compile there. */
export function unhandled(effect: never): never {
  throw new Error(`unhandled effect ${JSON.stringify(effect)}`)
}
