// What each command does to a process, as data: the one description of a command that the view,
// the event stream and the metrics all derive from.
import type { NfvInfo } from './kinds/nfv.ts'
import type { PrimaryStatus } from './kinds/primary.ts'
import type { Dir, MirrorInfo, StatusMarks, VfInfo, VlanTag } from './kinds/component-status.ts'
import type { PcapInfo } from './kinds/pcap.ts'

/** A status read, with what it saw. */
export type Observation =
  | { kind: 'primary.read'; status: PrimaryStatus }
  | { kind: 'nfv.read'; info: NfvInfo }
  | { kind: 'vf.read'; info: VfInfo; marks?: StatusMarks }
  | { kind: 'mirror.read'; info: MirrorInfo; marks?: StatusMarks }
  | { kind: 'pcap.read'; info: PcapInfo }

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
