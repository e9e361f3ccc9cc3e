// The status read of each kind: the body its own GET endpoint answers.
import type {
  MirrorInfo,
  NfvInfo,
  PcapInfo,
  PrimaryStatus,
  ProcessKind,
  VfInfo,
} from '../bodies.ts'
import type { Command } from '../command.ts'
import { mirrorCommands } from './mirror.ts'
import { nfvCommands } from './nfv.ts'
import { pcapCommands } from './pcap.ts'
import { primaryCommands } from './primary.ts'
import { vfCommands } from './vf.ts'

/** What each kind's status read answers. */
export type StatusBody = {
  primary: PrimaryStatus
  nfv: NfvInfo
  vf: VfInfo
  mirror: MirrorInfo
  pcap: PcapInfo
}

const READS: { [K in ProcessKind]: () => Command<StatusBody[K]> } = {
  primary: primaryCommands.status,
  nfv: nfvCommands.status,
  vf: vfCommands.status,
  mirror: mirrorCommands.status,
  pcap: pcapCommands.status,
}

/** A process's `status`, whatever its kind. */
export const statusOf = <K extends ProcessKind>(kind: K): Command<StatusBody[K]> => READS[kind]()
