// Which model plays a simulated process: its kind, its SPP era, and how it was started.
import type { ProcessKind } from '../protocol/command.ts'
import { Nfv2020Model } from './era2020/nfv.ts'
import { PcapModel } from './era2020/pcap.ts'
import { Primary2020Model } from './era2020/primary.ts'
import { Machine } from './machine.ts'
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

/** What differs between hosts and between the ways a process was started. */
export type ModelOptions = {
  era?: SimEra
  clientId?: number
  /** Queues of each physical port (rx = tx); its length is the number of phy ports (default 2). */
  phyQueues?: number[]
  /** The machine the process runs on, shared with the others started with it. */
  machine?: Machine
  /** Without a machine: the primary's rings (its `-n`), which every process sees (default 4). */
  rings?: number
  /** EAL lcores, the main one first: a primary's second runs its forwarder (2020), a vf's or
   * mirror's others run components. */
  lcores?: number[]
  /** vf, mirror: worker lcores alone (the main lcore is then 1); `lcores` takes precedence. */
  cores?: number[]
  /** Whether the phy ports take rte_flow rules (2020 primary; default true). */
  flowSupport?: boolean
}

/** The lcores each kind runs on unless told: a primary on 0,1, the others on 1 and up. */
export const DEFAULT_LCORES: Record<SimKind, number[]> = {
  primary: [0, 1],
  nfv: [1, 2],
  vf: [1, 2, 3, 4, 5],
  mirror: [1, 2, 3, 4, 5],
  pcap: [1, 2, 3],
}

/** The model for one process; spp_pcap did not exist in 18.11, so it always plays 2020. */
export function modelFor(kind: SimKind, options: ModelOptions): SimModel {
  const { era = '18.11', clientId, phyQueues = [1, 1], flowSupport } = options
  const machine = options.machine ?? new Machine({ rings: options.rings })
  const { rings, canCreate } = machine
  const lcores = options.lcores ?? (options.cores ? [1, ...options.cores] : DEFAULT_LCORES[kind])
  const [main = 0, ...workers] = lcores
  const cores = { mainCore: main, cores: workers }
  if (kind === 'pcap') return new PcapModel({ clientId, masterLcore: main, cores: workers })
  const phyPorts = phyQueues.length
  if (era === '2020') {
    if (kind === 'primary') {
      const keepsDeleted = machine.sharedPorts
      const { traffic } = machine
      const primary = new Primary2020Model({
        phyQueues,
        rings,
        lcores,
        flowSupport,
        keepsDeleted,
        traffic,
      })
      machine.primary = primary
      return primary
    }
    if (kind === 'nfv')
      return new Nfv2020Model({ clientId, phyQueues, rings, masterLcore: main, lcores })
    const rules = RULES_2020
    return new VfModel({ kind, clientId, phyQueues, rings, canCreate, ...cores, rules })
  }
  if (kind === 'primary') return new PrimaryModel({ phyPorts, rings, traffic: machine.traffic })
  if (kind === 'nfv') return new NfvModel({ clientId, phyPorts, rings })
  const rules = RULES_18_11
  return new VfModel({ kind, clientId, phyPorts, rings, canCreate, ...cores, rules })
}
