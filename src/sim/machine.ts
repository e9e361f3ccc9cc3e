// What the simulated processes of one machine share: the primary's rings, what it holds, and the
// packets that pass between them.
import { Traffic, type TrafficOptions } from './traffic.ts'
import type { Answer, SimModel } from './wire.ts'

/** A model that holds devices other processes may want (a 2020 primary's added ports). */
export type Holder = { held(): string[] }

/** A process's model as it runs on a machine (see `Machine.attach`). */
export type Attached = {
  /** Answers one command; what the process runs afterwards is what moves its packets. */
  handle(line: string): Answer
  /** The process is gone: it moves nothing any more. */
  leave(): void
}

/**
 * One machine's processes. Rings exist up to the primary's `-n`. With `sharedPorts`, the
 * processes number their devices together, as DPDK 22.11 does, and a device the primary holds
 * cannot be created again by a secondary (its vf or mirror answers `error occur`): what SPP's
 * processes did on the recorded host, not what every SPP host does. `traffic` is the packets
 * that arrive on its phy ports and how fast each process moves them (src/sim/traffic.ts).
 */
export class Machine {
  readonly rings: number
  readonly sharedPorts: boolean
  readonly traffic: Traffic
  #primary: Holder | undefined

  constructor({
    rings = 4,
    sharedPorts = false,
    traffic = {},
  }: { rings?: number; sharedPorts?: boolean; traffic?: TrafficOptions } = {}) {
    this.rings = rings
    this.sharedPorts = sharedPorts
    this.traffic = new Traffic(traffic)
  }

  /** The primary now running (undefined once it has exited). */
  set primary(holder: Holder | undefined) {
    this.#primary = holder
  }

  /** Whether a secondary may create this device (`ring:3`) now. */
  canCreate = (port: string): boolean =>
    !this.sharedPorts || !(this.#primary?.held().includes(port) ?? false)

  /**
   * Runs a process's model here, under its name (`nfv:1`, `vf:2`, `primary`): after each command
   * the model answers, what it runs (its `movers`) is what moves packets on this machine.
   */
  attach(name: string, model: SimModel): Attached {
    const lane = this.traffic.join(name)
    return {
      handle(line) {
        const answer = model.handle(line)
        lane.set(model.movers?.() ?? [])
        return answer
      },
      leave: () => lane.leave(),
    }
  }
}
