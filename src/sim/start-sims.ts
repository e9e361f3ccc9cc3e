// Starts several simulated processes against one controller.
import type { SimEra, SimKind } from './model-for.ts'
import type { Faults } from './faults.ts'
import { Machine } from './machine.ts'
import { SimProcess } from './sim-process.ts'
import type { TrafficOptions } from './traffic.ts'

/** One process to start; `era` overrides the target's. */
export type SimSpec = {
  kind: SimKind
  clientId?: number
  era?: SimEra
  phyQueues?: number[]
  /** EAL lcores, the main one first (defaults: model-for.ts's DEFAULT_LCORES). */
  lcores?: number[]
  /** vf, mirror: worker cores alone (default 2-5); `lcores` takes precedence. */
  cores?: number[]
}
export type SimTarget = {
  host?: string
  /** The SPP release every process plays unless its spec says otherwise (default 18.11). */
  era?: SimEra
  primaryPort: number
  secondaryPort: number
  /** The host's: the primary's rings (`-n`, default 4), its phy ports' queues (default [1, 1]). */
  rings?: number
  phyQueues?: number[]
  /** Whether the phy ports take rte_flow rules (default true; net_null ports do not). */
  flowSupport?: boolean
  /** Devices numbered across processes, as DPDK 22.11 does (see machine.ts; default false). */
  sharedPorts?: boolean
  /**
   * The packets of the machine (unless `machine` is given): what arrives on its phy ports, how
   * fast each process moves packets, their MACs, the clock they move by (src/sim/traffic.ts).
   */
  traffic?: TrafficOptions
  /** The machine to start them on (one made of `rings`, `sharedPorts` and `traffic` unless given). */
  machine?: Machine
  pollMs?: number
  reconnect?: boolean
  /** Processes that exit start again (default: they stay gone, as SPP's do). */
  respawn?: boolean
  faults?: Faults
}

/** The simulated processes of `specs`, on one machine, not started yet. */
export function createSims(specs: SimSpec[], target: SimTarget): SimProcess[] {
  const { primaryPort, secondaryPort, era, phyQueues, rings, sharedPorts, traffic, ...host } =
    target
  const machine =
    host.machine ?? new Machine({ rings, sharedPorts, traffic: { ...traffic, phyQueues } })
  return specs.map(
    (spec) =>
      new SimProcess({
        ...host,
        ...spec,
        era: spec.era ?? era,
        phyQueues: spec.phyQueues ?? phyQueues,
        machine,
        port: spec.kind === 'primary' ? primaryPort : secondaryPort,
      }),
  )
}

/** Starts simulated processes against a controller; resolves once each has connected. */
export async function startSims(specs: SimSpec[], target: SimTarget): Promise<SimProcess[]> {
  const sims = createSims(specs, target)
  try {
    await Promise.all(sims.map((sim) => sim.start()))
  } catch (error) {
    for (const sim of sims) sim.stop()
    throw error
  }
  return sims
}
