// What a simulated vf or mirror holds, and how a decoded change reaches its workers (a flush).
import { parsePort, reject, type Dir } from './vf-tokens.ts'

export type Vlan = { operation: 'none' | 'add' | 'del'; id: number; pcp: number }
/** A component as the commands left it (SPP's component info): what the next flush hands over. */
export type Component = {
  id: number
  name: string
  type: string
  core: number
  pending: Record<Dir, string[]>
}
/** What a worker runs: the component as the last flush that reached it left it. */
export type Worker = {
  name: string
  type: string
  rx: string[]
  tx: string[]
  vlans: Map<string, Vlan>
  /** A classifier's table, as its tx ports' entries were when it was updated. */
  table: { port: string; vid: number; mac: string }[]
}
export type Classified = { vid: number; mac: string }
/** A device the process knows: it was named by a command (phy ports from the start). */
type Iface = { created: boolean; classified?: Classified }
/** The components on one lcore, and their type (18.11: one per lcore): asked, and running. */
type Lcore = { pending: number[]; applied: number[]; type?: string; appliedType?: string }
export type VfOptions = {
  kind?: 'vf' | 'mirror'
  clientId?: number
  phyPorts?: number
  /** Queues of each physical port (rx = tx), in place of `phyPorts` (a 2020 vf's `phy:NnqQ`). */
  phyQueues?: number[]
  cores?: number[]
  mainCore?: number
  /** The primary's rings (its `-n`). */
  rings?: number
  /** Whether a device can be created now (besides a ring the primary lacks): the host's say. */
  canCreate?: (port: string) => boolean
}

/** How many ports each component type may have per direction (checked when a change is applied). */
const SHAPES: Record<string, Record<Dir, number>> = {
  forward: { rx: 1, tx: 1 },
  merge: { rx: Infinity, tx: 1 },
  classifier_mac: { rx: Infinity, tx: Infinity },
  classifier: { rx: 1, tx: Infinity }, // the 2020 name; its limits are checked before adding
  mirror: { rx: 1, tx: 2 },
}
/** The device a port names: `phy:0 nq 1` (a 2020 queue) is one of `phy:0`, `ring:0x1` is `ring:1`. */
export function deviceOf(port: string): string {
  const word = port.split(' ')[0]!
  const parsed = parsePort(word)
  return parsed ? `${parsed.type}:${parsed.index}` : word
}
/** What a worker of a type is: a status reads a classifier, a mirror or a forwarder. */
export const familyOf = (type: string | undefined) =>
  type === 'classifier' || type === 'classifier_mac'
    ? 'classifier'
    : type === 'mirror'
      ? type
      : 'forward'

/**
 * The state of a vf or mirror, as SPP keeps it: components and lcores as commands left them, the
 * workers as the last flush left them, and the devices. A flush creates every named device not
 * created yet (a failure stops it there and leaves what changed to be flushed again: every later
 * change fails the same way), then hands each changed lcore and component to its worker (the
 * first refused component stops it, and what changed is forgotten anyway).
 */
export class VfState {
  readonly kind: 'vf' | 'mirror'
  readonly clientId: number
  readonly phy: number[]
  /** Queues of each physical port; a port with more than one needs `phy:NnqQ` (2020). */
  readonly queues: number[]
  /** Worker lcores; the main lcore is not one of them. */
  readonly cores: number[]
  readonly mainCore: number
  /** Components by id (the lowest free id is taken); a stopped one leaves a hole. */
  readonly components: (Component | undefined)[] = []
  readonly workers = new Map<number, Worker>()
  readonly lcores = new Map<number, Lcore>()
  readonly ifaces = new Map<string, Iface>()
  readonly vlans = new Map<string, Vlan>() // `${port} ${dir}`
  readonly #changed = new Set<number>()
  readonly #changedCores = new Set<number>()
  readonly #rings: number
  readonly #canCreate: (port: string) => boolean

  constructor(options: VfOptions = {}) {
    const { kind = 'vf', clientId = 2, phyPorts = 2, cores = [2, 3, 4, 5] } = options
    this.kind = kind
    this.clientId = clientId
    this.queues = options.phyQueues ?? Array.from({ length: phyPorts }, () => 1)
    this.phy = this.queues.map((_, n) => n)
    this.cores = cores
    this.mainCore = options.mainCore ?? 1
    this.#rings = options.rings ?? 4
    this.#canCreate = options.canCreate ?? (() => true)
    for (const n of this.phy) this.ifaces.set(`phy:${n}`, { created: true })
    for (const core of cores) this.lcores.set(core, { pending: [], applied: [] })
  }

  /** The components in use, by id. */
  get started(): Component[] {
    return this.components.filter((c) => c !== undefined)
  }
  byName = (name: string) => this.started.find((c) => c.name === name)

  /** Whether the process knows this device: a physical one, or one a port command named. */
  isKnown = (port: string) => this.ifaces.has(deviceOf(port))

  /** Indexes of the created devices of a type, for status. */
  createdOf(type: 'vhost' | 'ring'): number[] {
    return [...this.ifaces]
      .filter(([port, iface]) => iface.created && port.startsWith(`${type}:`))
      .map(([port]) => parsePort(port)!.index)
  }

  /** Names a device (`port add`): it is created at the next flush. */
  know(port: string) {
    const device = deviceOf(port)
    if (!this.ifaces.has(device)) this.ifaces.set(device, { created: false })
  }

  /** Marks a component, and its lcore, to be handed over at the next flush. */
  touch(id: number, core?: number) {
    this.#changed.add(id)
    if (core !== undefined) this.#changedCores.add(core)
  }
  /** A stopped component is no worker's business any more; only its lcore is handed over. */
  untouch(id: number, core: number) {
    this.#changed.delete(id)
    this.#changedCores.add(core)
  }

  /** Executes a decoded change, then flushes; any failure is `error occur`, nothing undone. */
  execute(change: () => void): void {
    change()
    this.#flush()
  }

  #flush() {
    for (const type of ['vhost', 'ring'] as const)
      for (const index of this.#uncreated(type)) {
        const port = `${type}:${index}`
        if ((type === 'ring' && index >= this.#rings) || !this.#canCreate(port))
          reject('error occur') // retried, and failing again, at every later flush
        this.ifaces.get(port)!.created = true
      }
    for (const core of this.#changedCores) {
      const lcore = this.lcores.get(core)
      if (lcore) Object.assign(lcore, { applied: [...lcore.pending], appliedType: lcore.type })
    }
    const changed = [...this.#changed].sort((a, b) => a - b)
    this.#changed.clear()
    this.#changedCores.clear()
    for (const id of changed) {
      const c = this.components[id]
      if (c) this.#update(c)
    }
  }

  #uncreated(type: 'vhost' | 'ring'): number[] {
    return [...this.ifaces]
      .filter(([port, iface]) => !iface.created && port.startsWith(`${type}:`))
      .map(([port]) => parsePort(port)!.index)
      .sort((a, b) => a - b)
  }

  /** Hands a component to its worker; a shape the worker cannot run stops the flush. */
  #update(c: Component) {
    const shape = SHAPES[c.type]!
    if (c.pending.rx.length > shape.rx || c.pending.tx.length > shape.tx) reject('error occur')
    const vlans = new Map<string, Vlan>()
    for (const dir of ['rx', 'tx'] as const)
      for (const port of c.pending[dir]) {
        const vlan = this.vlans.get(`${port} ${dir}`)
        if (vlan) vlans.set(`${port} ${dir}`, vlan)
      }
    const table = c.pending.tx.flatMap((port) => {
      const classified = this.ifaces.get(deviceOf(port))?.classified
      return classified ? [{ port, ...classified }] : []
    })
    this.workers.set(c.id, { name: c.name, type: c.type, ...copy(c.pending), vlans, table })
  }
}

const copy = ({ rx, tx }: Record<Dir, string[]>) => ({ rx: [...rx], tx: [...tx] })
