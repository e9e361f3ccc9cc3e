// spp_nfv (18.11) as a simulator model: ports, patches, forwarding; echoes every change.
import type { Mover } from './mover.ts'
import { fixedReply, takeSlot, type Answer, type SimModel } from './wire.ts'

const ADDABLE = new Set(['ring', 'vhost', 'pcap', 'nullpmd'])

/**
 * spp_nfv: never reports failure; every command but `status` and `_get_client_id` is answered with
 * its own bytes, separators (and the colon of a port id) turned into NULs.
 */
export class NfvModel implements SimModel {
  readonly clientId: number
  /** DPDK port slots in number order; a deleted slot is reused by the next `add`. */
  readonly slots: (string | undefined)[]
  /** Patches by slot: the source's to the destination's (which may be gone since: `udf`). */
  readonly patches = new Map<number, number>()
  running = false
  readonly #rings: number

  constructor({ clientId = 1, phyPorts = 2, rings = 4 } = {}) {
    this.clientId = clientId
    this.slots = Array.from({ length: phyPorts }, (_, n) => `phy:${n}`)
    this.#rings = rings
  }

  isStatus = (line: string) => line === 'status'

  handle(line: string): Answer {
    const [command, first, second] = line.split(' ').filter(Boolean)
    const echo = () => ({
      reply: fixedReply(
        command === 'add' || command === 'del' || command === 'patch'
          ? line.replace(/[ :]/g, '\0')
          : line.replaceAll(' ', '\0'),
      ),
    })
    switch (command) {
      case '_get_client_id':
        return { reply: fixedReply(String(this.clientId)) }
      case 'status':
        return { reply: fixedReply(JSON.stringify(this.#status())) }
      case 'forward':
      case 'stop':
        this.running = command === 'forward'
        return echo()
      case 'add':
        if (first) this.#add(first)
        return echo()
      case 'del':
        this.running = false // the process stops forwarding on every del
        if (first) this.#del(first)
        return echo()
      case 'patch':
        if (first?.startsWith('reset'))
          this.patches.clear() // five characters are compared
        else if (first && second && this.slots.includes(first) && this.slots.includes(second))
          this.patches.set(this.slots.indexOf(first), this.slots.indexOf(second))
        return echo()
      case 'exit':
        return { ...echo(), exit: true }
      default:
        return echo()
    }
  }

  /** While it runs, each patch moves packets from its source to its destination, counted. */
  movers(): Mover[] {
    if (!this.running) return []
    return [...this.patches].flatMap(([src, dst]): Mover[] => {
      const from = this.slots[src]
      const to = this.slots[dst]
      if (from === undefined || to === undefined) return []
      return [{ name: `patch ${from} ${to}`, type: 'forward', rx: [from], tx: [to], counted: true }]
    })
  }

  #status() {
    const ports = this.slots.filter((port) => port !== undefined)
    const patches = [...this.patches]
      .sort(([a], [b]) => a - b)
      .map(([src, dst]) => ({ src: this.slots[src]!, dst: this.slots[dst] ?? 'udf' }))
    return {
      'client-id': this.clientId,
      status: this.running ? 'running' : 'idling',
      ports,
      patches,
    }
  }

  #add(port: string) {
    const [type = '', index = ''] = port.split(':')
    if (!/^[0-9]+$/.test(index) || this.slots.includes(port)) return
    if (!ADDABLE.has(type)) {
      this.slots[0] = 'udf' // the real process overwrites slot 0 with an undefined-type port
      return
    }
    if (type === 'ring' && Number(index) >= this.#rings) return // the primary has no such ring
    takeSlot(this.slots, port)
  }

  #del(port: string) {
    const slot = this.slots.indexOf(port)
    if (slot === -1) return
    this.slots[slot] = undefined
    this.patches.delete(slot)
    // Only the first patch to it goes; another one stays, to a slot now empty (`udf`).
    const pointing = [...this.patches.keys()]
      .sort((a, b) => a - b)
      .find((src) => this.patches.get(src) === slot)
    if (pointing !== undefined) this.patches.delete(pointing)
  }
}
