import type { ProcessKind } from '../protocol/types.ts'
import { SimProcess, type Faults } from './sim-process.ts'

export type SimSpec = { kind: Exclude<ProcessKind, 'pcap'>; clientId?: number }
export type SimTarget = {
  host?: string
  primaryPort: number
  secondaryPort: number
  pollMs?: number
  reconnect?: boolean
  faults?: Faults
}

/** Starts simulated processes against a controller; resolves once each has connected. */
export async function startSims(specs: SimSpec[], target: SimTarget): Promise<SimProcess[]> {
  const sims = specs.map(
    ({ kind, clientId }) =>
      new SimProcess({
        kind,
        clientId,
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
