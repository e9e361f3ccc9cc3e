// Starts several simulated processes against one controller.
import type { SimEra, SimKind } from './model-for.ts'
import type { Faults } from './faults.ts'
import { SimProcess } from './sim-process.ts'

/** One process to start; `era` overrides the target's. */
export type SimSpec = {
  kind: SimKind
  clientId?: number
  era?: SimEra
  phyQueues?: number[]
  /** vf, mirror: worker cores (default 2-5). */
  cores?: number[]
}
export type SimTarget = {
  host?: string
  /** The SPP release every process plays unless its spec says otherwise (default 18.11). */
  era?: SimEra
  primaryPort: number
  secondaryPort: number
  pollMs?: number
  reconnect?: boolean
  faults?: Faults
}

/** Starts simulated processes against a controller; resolves once each has connected. */
export async function startSims(specs: SimSpec[], target: SimTarget): Promise<SimProcess[]> {
  const sims = specs.map(
    ({ kind, clientId, era, phyQueues, cores }) =>
      new SimProcess({
        kind,
        era: era ?? target.era,
        clientId,
        phyQueues,
        cores,
        host: target.host,
        port: kind === 'primary' ? target.primaryPort : target.secondaryPort,
        pollMs: target.pollMs,
        reconnect: target.reconnect,
        faults: target.faults,
      }),
  )
  try {
    await Promise.all(sims.map((sim) => sim.start()))
  } catch (error) {
    for (const sim of sims) sim.stop()
    throw error
  }
  return sims
}
