// What a simulated vf or mirror holds, and how a decoded change is applied to it.
import { parsePort, reject, type Dir } from './vf-tokens.ts'

export type Vlan = { operation: 'none' | 'add' | 'del'; id: number; pcp: number }
export type Component = {
  name: string
  type: string
  core: number
  /** What the commands asked for, and what the workers run (a valid shape is applied). */
  pending: Record<Dir, string[]>
  applied: Record<Dir, string[]>
}
export type Classified = { vid: number; mac: string }
export type VfOptions = {
  kind?: 'vf' | 'mirror'
  clientId?: number
  phyPorts?: number
  /** Queues of each physical port (rx = tx), in place of `phyPorts` (a 2020 vf's `phy:NnqQ`). */
  phyQueues?: number[]
  cores?: number[]
  mainCore?: number
  rings?: number
}

/** How many ports each component type may have per direction (checked when a change is applied). */
const SHAPES: Record<string, Record<Dir, number>> = {
  forward: { rx: 1, tx: 1 },
  merge: { rx: Infinity, tx: 1 },
  classifier_mac: { rx: Infinity, tx: Infinity },
  classifier: { rx: 1, tx: Infinity }, // the 2020 name; its limits are checked before adding
  mirror: { rx: 1, tx: 2 },
}

/** The state of a vf or mirror: components, created devices, vlan settings, classifier entries. */
export class VfState {
  readonly kind: 'vf' | 'mirror'
  readonly clientId: number
  readonly phy: number[]
  /** Queues of each physical port; a port with more than one needs `phy:NnqQ` (2020). */
  readonly queues: number[]
  /** Worker lcores; the main lcore is not one of them. */
  readonly cores: number[]
  readonly mainCore: number
  readonly components: Component[] = []
  readonly created = { vhost: new Set<number>(), ring: new Set<number>() }
  readonly vlans = new Map<string, Vlan>() // `${port} ${dir}`
  readonly classifier = new Map<string, Classified>() // by port
  #failedCreation = false
  readonly #rings: number

  constructor(options: VfOptions = {}) {
    const { kind = 'vf', clientId = 2, phyPorts = 2, cores = [2, 3, 4, 5] } = options
    this.kind = kind
    this.clientId = clientId
    this.queues = options.phyQueues ?? Array.from({ length: phyPorts }, () => 1)
    this.phy = this.queues.map((_, n) => n)
    this.cores = cores
    this.mainCore = options.mainCore ?? 1
    this.#rings = options.rings ?? 8
  }

  /** Whether the vf knows this port: a physical one, or a device created by an attach. */
  isKnown(port: string): boolean {
    const parsed = parsePort(port)
    if (!parsed) return false
    return parsed.type === 'phy'
      ? this.phy.includes(parsed.index)
      : this.created[parsed.type].has(parsed.index)
  }

  /** Executes a decoded change; any failure is `error occur`, with no rollback of what was done. */
  execute(change: () => void): void {
    if (this.#failedCreation) reject('error occur')
    change()
    this.#flush()
  }

  /** Creates new devices, then hands each component whose shape is valid its pending port lists. */
  #flush() {
    for (const component of this.components) {
      for (const port of [...component.pending.rx, ...component.pending.tx]) {
        const parsed = parsePort(port) // undefined for a 2020 queue spelling (`phy:0 nq 1`)
        if (!parsed || parsed.type === 'phy') continue
        const { type, index } = parsed
        if (type === 'ring' && index >= this.#rings) {
          this.#failedCreation = true // retried, and failing, at every later change
          reject('error occur')
        }
        this.created[type].add(index)
      }
    }
    let shapeError = false
    for (const component of this.components) {
      const shape = SHAPES[component.type]!
      if (component.pending.rx.length > shape.rx || component.pending.tx.length > shape.tx)
        shapeError = true
      else component.applied = { rx: [...component.pending.rx], tx: [...component.pending.tx] }
    }
    if (shapeError) reject('error occur')
  }
}
