// spp_nfv as of 2020 (spp-protocol-2020 §5): compact JSON results, 32768-byte frames, its hazards.
import {
  echo2020,
  inSlots,
  isUid,
  patchArgs,
  reply2020,
  result2020 as result,
  uidArg,
  uidText,
  type Uid,
} from './uid.ts'
import type { Mover } from '../mover.ts'
import { takeSlot, type Answer, type SimModel } from '../wire.ts'

const ADDABLE = new Set(['vhost', 'ring', 'pcap', 'nullpmd', 'memif'])

export type Nfv2020Options = {
  clientId?: number
  /** Queues of each physical port (rx = tx); a port with more than one is shown per queue. */
  phyQueues?: number[]
  rings?: number
  masterLcore?: number
  lcores?: number[]
}

/** spp_nfv at 8e72ea0: ports in ethdev slots, patches per (port, queue), `running`/`idling`. */
export class Nfv2020Model implements SimModel {
  clientId: number
  readonly masterLcore: number
  readonly lcores: number[]
  /** DPDK port slots in number order (`phy:0`, `ring:1`, `udf`); a deleted slot is reused. */
  readonly slots: (string | undefined)[]
  readonly queues: number[]
  /** Patches by (slot, queue) of the source, `${slot}/${queue}`: to a slot and queue. */
  readonly patches = new Map<string, { slot: number; queue: number }>()
  running = false
  readonly #rings: number

  constructor({ clientId = 1, phyQueues = [1, 1], rings = 4, ...o }: Nfv2020Options = {}) {
    this.clientId = clientId
    this.masterLcore = o.masterLcore ?? 1
    this.lcores = o.lcores ?? [this.masterLcore, this.masterLcore + 1]
    this.queues = phyQueues
    this.slots = phyQueues.map((_, n) => `phy:${n}`)
    this.#rings = rings
  }

  isStatus = (line: string) => line.split(' ').find(Boolean) === 'status'

  handle(line: string): Answer {
    const tokens = line.split(' ').filter(Boolean)
    switch (tokens[0]) {
      case '_get_client_id':
        return reply2020(
          `{"results":[{"result":"success"}],"client_id":${this.clientId},"process_type":"nfv"}`,
        )
      case '_set_client_id': {
        if (tokens[1] === undefined) return { exit: true, crash: 'NULL dereference' }
        const ok = /^[0-9]+$/.test(tokens[1])
        if (ok) this.clientId = Number(tokens[1])
        return result(ok, '_set_client_id')
      }
      case 'status':
        return reply2020(JSON.stringify(this.#status()))
      case 'exit':
        this.running = false
        return { ...result(true, 'exit'), exit: true }
      case 'forward':
      case 'stop':
        this.running = tokens[0] === 'forward'
        return result(true, tokens[0])
      case 'add':
        return this.#add(line, tokens[1])
      case 'del':
        this.running = false // del stops forwarding, before the port id is even read
        return this.#del(line, tokens[1])
      case 'patch':
        return this.#patch(line, tokens)
      default:
        return echo2020(line) // unknown words, and a line of only spaces, come back as they came
    }
  }

  /** The spelling of a port (and queue) in status: `phy:0 nq 1` when the port has queues. */
  spelling(port: string, queue = 0): string {
    const [type, id] = port.split(':')
    const queues = type === 'phy' ? (this.queues[Number(id)] ?? 1) : 1
    return queues > 1 ? `${port} nq ${queue}` : port
  }

  /** While it runs, each patch moves packets from its source (queue) to its destination, counted. */
  movers(): Mover[] {
    if (!this.running) return []
    return [...this.patches].flatMap(([key, dst]): Mover[] => {
      const [slot = '', queue = '0'] = key.split('/')
      const from = this.slots[Number(slot)]
      const to = this.slots[dst.slot]
      if (from === undefined || to === undefined) return []
      const rx = this.spelling(from, Number(queue))
      const tx = this.spelling(to, dst.queue)
      return [{ name: `patch ${rx} ${tx}`, type: 'forward', rx: [rx], tx: [tx], counted: true }]
    })
  }

  #status() {
    const ports = this.slots.flatMap((port) => {
      if (port === undefined) return []
      const queues = port.startsWith('phy:') ? (this.queues[Number(port.slice(4))] ?? 1) : 1
      return Array.from({ length: queues }, (_, q) => this.spelling(port, q))
    })
    const patches = this.#entries().flatMap(([src, queue]) => {
      const dst = this.patches.get(`${src}/${queue}`)
      if (!dst) return []
      const to = this.slots[dst.slot]
      const spelt = to === undefined ? 'udf' : this.spelling(to, dst.queue)
      return [{ src: this.spelling(this.slots[src]!, queue), dst: spelt }]
    })
    const status = this.running ? 'running' : 'idling'
    const { clientId, masterLcore, lcores } = this
    return { 'client-id': clientId, status, 'master-lcore': masterLcore, lcores, ports, patches }
  }

  #add(line: string, token: string | undefined): Answer {
    const uid = uidArg(line, token)
    if (!isUid(uid)) return uid
    const port = uidText(uid)
    const reply = (ok: boolean) => result(ok, 'add', `,"port":"${port}"`)
    if (!ADDABLE.has(uid.type)) {
      this.slots[0] = 'udf' // overwrites port slot 0 and still answers succeeded (§2.4)
      return reply(true)
    }
    if (uid.id < 0 || (uid.type === 'ring' && uid.id >= this.#rings)) return reply(false)
    takeSlot(this.slots, port)
    return reply(true)
  }

  #del(line: string, token: string | undefined): Answer {
    const uid = uidArg(line, token)
    if (!isUid(uid)) return uid
    // Any other type indexes the forwarding table with PORT_RESET, out of its bounds (§2.4).
    if (!ADDABLE.has(uid.type)) return { exit: true, crash: `out-of-bounds del of ${token}` }
    const port = uidText(uid)
    const slot = this.slots.indexOf(port)
    if (slot !== -1) this.#remove(slot)
    return result(slot !== -1, 'del', `,"port":"${port}"`)
  }

  /** Every (slot, queue) of a port in use, in slot order. */
  #entries(): [number, number][] {
    return this.slots.flatMap((port, slot) => {
      if (port === undefined) return []
      const queues = port.startsWith('phy:') ? (this.queues[Number(port.slice(4))] ?? 1) : 1
      return Array.from({ length: queues }, (_, q): [number, number] => [slot, q])
    })
  }

  /**
   * SPP's forward_array_remove at 8e72ea0: the slot's patch goes, then the patch of the first
   * port in use, whatever it points to (its test of the destination is inverted); a patch to the
   * deleted port from elsewhere stays, to an empty slot (`udf`).
   */
  #remove(slot: number) {
    this.slots[slot] = undefined
    this.patches.delete(`${slot}/0`)
    const first = this.#entries()[0]
    if (first) this.patches.delete(`${first[0]}/${first[1]}`)
  }

  #patch(line: string, tokens: string[]): Answer {
    const [, src, dst] = tokens
    if (src === undefined) return echo2020(line)
    if (src.startsWith('reset')) {
      this.patches.clear() // `patch resetX` resets too: only five characters are compared
      return echo2020(line)
    }
    if (dst === undefined) return echo2020(line)
    const ports = patchArgs(line, src, dst)
    if (!Array.isArray(ports)) return ports
    const [from, to] = ports
    const ok = inSlots(this.slots, this.queues, from) && inSlots(this.slots, this.queues, to)
    if (ok) this.patches.set(this.#key(from), { slot: this.#slot(to), queue: to.queue ?? 0 })
    return result(ok, 'patch', `,"ports":{"src":"${src}","dst":"${dst}"}`)
  }

  #slot = (uid: Uid) => this.slots.indexOf(uidText(uid))
  #key = (uid: Uid) => `${this.#slot(uid)}/${uid.queue ?? 0}`
}
