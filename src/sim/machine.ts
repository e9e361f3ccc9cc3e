// What the simulated processes of one machine share: the primary's rings, and what it holds.

/** A model that holds devices other processes may want (a 2020 primary's added ports). */
export type Holder = { held(): string[] }

/**
 * One machine's processes. Rings exist up to the primary's `-n`. With `sharedPorts`, the
 * processes number their devices together, as DPDK 22.11 does, and a device the primary holds
 * cannot be created again by a secondary (its vf or mirror answers `error occur`): what SPP's
 * processes did on the recorded host, not what every SPP host does.
 */
export class Machine {
  readonly rings: number
  readonly sharedPorts: boolean
  #primary: Holder | undefined

  constructor({ rings = 4, sharedPorts = false }: { rings?: number; sharedPorts?: boolean } = {}) {
    this.rings = rings
    this.sharedPorts = sharedPorts
  }

  /** The primary now running (undefined once it has exited). */
  set primary(holder: Holder | undefined) {
    this.#primary = holder
  }

  /** Whether a secondary may create this device (`ring:3`) now. */
  canCreate = (port: string): boolean =>
    !this.sharedPorts || !(this.#primary?.held().includes(port) ?? false)
}
