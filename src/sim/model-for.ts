// Which model plays a simulated process: its kind and its SPP era.
import type { ProcessKind } from '../protocol/command.ts'
import { Nfv2020Model } from './era2020/nfv.ts'
import { PcapModel } from './era2020/pcap.ts'
import { Primary2020Model } from './era2020/primary.ts'
import { NfvModel } from './nfv-model.ts'
import { PrimaryModel } from './primary-model.ts'
import { VfModel } from './vf-model.ts'
import { RULES_18_11, RULES_2020 } from './vf-rules.ts'
import type { SimModel } from './wire.ts'

/** The processes the simulator plays: the controller's kinds, and spp_pcap (2020 only). */
export type SimKind = ProcessKind | 'pcap'
/** SPP releases the simulator reproduces: 18.11 (`d5c6c97`) and 2020 (`8e72ea0`). */
export type SimEra = '18.11' | '2020'

/** Kinds whose replies are unpadded spaced JSON read from a polled socket. */
export const isJsonKind = (kind: SimKind) => kind === 'vf' || kind === 'mirror' || kind === 'pcap'

/** The model for one process; spp_pcap did not exist in 18.11, so it always plays 2020. */
export function modelFor(
  kind: SimKind,
  options: { era?: SimEra; clientId?: number; phyQueues?: number[]; cores?: number[] },
): SimModel {
  const { era = '18.11', clientId, phyQueues, cores } = options
  if (kind === 'pcap') return new PcapModel({ clientId })
  if (era === '2020') {
    if (kind === 'primary') return new Primary2020Model({ phyQueues })
    if (kind === 'nfv') return new Nfv2020Model({ clientId, phyQueues })
    return new VfModel({ kind, clientId, phyQueues, cores, rules: RULES_2020 })
  }
  if (kind === 'primary') return new PrimaryModel()
  if (kind === 'nfv') return new NfvModel({ clientId })
  return new VfModel({ kind, clientId, cores, rules: RULES_18_11 })
}
