// spp_primary as of 2020 (spp-protocol-2020 §4): compact status, JSON results, forwarder, flows.
import type { Mover } from '../mover.ts'
import { PrimaryModel } from '../primary-model.ts'
import type { Traffic } from '../traffic.ts'
import { takeSlot, type Answer, type SimModel } from '../wire.ts'
import { runFlow, type Rule } from './flow.ts'
import { launchOf } from './launch.ts'
import { renderStatus } from './primary-status.ts'
import {
  echo2020,
  hazard,
  inSlots,
  isUid,
  parseUid,
  patchArgs,
  reply2020,
  result2020 as result,
  uidArg,
  uidText,
  type Uid,
} from './uid.ts'

const ADDABLE = new Set(['vhost', 'ring', 'pcap', 'nullpmd', 'memif', 'pipe'])

export type Primary2020Options = {
  /** Queues of each physical port (rx = tx). */
  phyQueues?: number[]
  rings?: number
  masterLcore?: number
  lcores?: number[]
  /** Whether the forwarder thread runs (SPP: more than one lcore and no `--disp-stats`). */
  forwarder?: boolean
  /** Whether the phy ports' driver takes rte_flow rules (net_null's does not). */
  flowSupport?: boolean
  /** A forwarder goes on listing (and the primary holding) a port `del` removed, as recorded
   * with DPDK 22.11 (its del frees by list position, which need not be the port's device). */
  keepsDeleted?: boolean
  /** Its machine's packets, whose counters it shows. */
  traffic?: Traffic
}

/** An entry of the primary's list of its ports (phy ports first), in the order they came. */
type Listed = { port: string; pipe?: { rx: number; tx: number } }

/**
 * spp_primary at 8e72ea0. Its counters are its machine's, as in the 18.11 model, but a phy port's
 * `tx_drop` is its own. Its forwarder, while running, moves packets as an nfv's patches do.
 */
export class Primary2020Model extends PrimaryModel implements SimModel {
  protected override readonly phyDropsFromClients = false
  readonly masterLcore: number
  readonly lcores: number[]
  readonly forwarder: boolean
  readonly queues: number[]
  /** The forwarder's ports by ethdev id (`phy:0`, `ring:1`, `udf`); a freed slot is reused. */
  readonly slots: (string | undefined)[]
  /** Patches by slot: the source's to the destination's (`udf` once that one is gone). */
  readonly patches = new Map<number, number>()
  /** The ports as added, a freed entry reused: `pipes` lists its pipes, `del` looks here. */
  readonly list: (Listed | undefined)[]
  readonly keepsDeleted: boolean
  /** Flow rules of each physical port, by ethdev id. */
  readonly flows: Rule[][]
  readonly flowSupport: boolean
  /** `launch` commands received, as (client id, program, arguments). */
  readonly launched: { clientId: number; name: string; args: string[] }[] = []
  running = false

  constructor({ phyQueues = [1, 1], rings = 4, traffic, ...o }: Primary2020Options = {}) {
    super({ phyPorts: phyQueues.length, rings, ...(traffic ? { traffic } : {}) })
    this.queues = phyQueues
    this.masterLcore = o.masterLcore ?? o.lcores?.[0] ?? 0
    this.lcores = o.lcores ?? [this.masterLcore, this.masterLcore + 1]
    this.forwarder = o.forwarder ?? this.lcores.length > 1
    this.slots = phyQueues.map((_, n) => `phy:${n}`)
    this.list = this.slots.map((port) => ({ port: port! }))
    this.flows = phyQueues.map(() => [])
    this.flowSupport = o.flowSupport ?? true
    this.keepsDeleted = o.keepsDeleted ?? false
  }

  /** The pipes of the list, in its order (one added twice is there twice). */
  get pipes(): { id: number; rx: number; tx: number }[] {
    return this.list.flatMap((e) => (e?.pipe ? [{ id: Number(e.port.slice(5)), ...e.pipe }] : []))
  }

  /**
   * What its forwarder moves while it runs: each patch, as an nfv's (not in the recordings, whose
   * primary ran on one lcore and had no forwarder; modelled on spp_nfv, whose forwarding and
   * counting SPP's primary shares), counted in the statistics as an nfv counts.
   */
  movers(): Mover[] {
    if (!this.forwarder || !this.running) return []
    return [...this.patches].flatMap(([src, dst]): Mover[] => {
      const from = this.slots[src]
      const to = this.slots[dst]
      if (from === undefined || to === undefined) return []
      return [{ name: `patch ${from} ${to}`, type: 'forward', rx: [from], tx: [to], counted: true }]
    })
  }

  /** The devices it holds besides its phy ports, for the processes of its machine. */
  held = (): string[] =>
    this.slots.filter((port): port is string => port !== undefined && !port.startsWith('phy:'))

  override handle(line: string): Answer {
    const tokens = line.split(' ').filter(Boolean)
    switch (tokens[0]) {
      case undefined: // no check for an empty command before strcmp(token_list[0], …)
        return { exit: true, crash: 'NULL dereference on a command of only spaces' }
      case 'status':
        return reply2020(renderStatus(this, this.counters()))
      case 'clear':
        this.traffic.clear()
        return result(true, 'clear')
      case 'exit':
        return { ...result(true, 'exit'), exit: true }
      case 'launch': {
        const [, id, name, ...args] = tokens
        if (id === undefined || name === undefined) return { exit: true, crash: 'NULL dereference' }
        this.launched.push({ clientId: Number(id), name, args })
        // Always succeeded: the program starts later and registers itself, or never does.
        return { ...result(true, 'launch'), launch: launchOf(Number(id), name, args) }
      }
      case 'forward':
      case 'stop':
        this.running = tokens[0] === 'forward'
        return result(true, tokens[0])
      case 'add':
        return this.#add(line, tokens)
      case 'del':
        return this.#del(line, tokens[1])
      case 'patch':
        return this.#patch(line, tokens)
      case 'flow':
        return reply2020(runFlow(tokens, this.flows, this.flowSupport))
      default:
        return echo2020(line)
    }
  }

  #add(line: string, tokens: string[]): Answer {
    const uid = uidArg(line, tokens[1])
    if (!isUid(uid)) return uid
    const port = uidText(uid)
    const reply = (ok: boolean) => result(ok, 'add', `,"port":"${port}"`)
    if (!ADDABLE.has(uid.type)) {
      this.slots[0] = 'udf' // overwrites slot 0 and answers succeeded (§2.4)
      return reply(true)
    }
    const ring = (n: number) => n >= 0 && n < this.ringCount
    let pipe: Listed['pipe']
    if (uid.type === 'pipe') {
      const rx = parseUid(tokens[2])
      const tx = parseUid(tokens[3])
      const badRing = hazard(line, rx) ?? hazard(line, tx)
      if (badRing || typeof rx === 'string' || typeof tx === 'string') return badRing!
      if (rx.type !== 'ring' || tx.type !== 'ring' || !ring(rx.id) || !ring(tx.id))
        return reply(false)
      pipe = { rx: rx.id, tx: tx.id }
    }
    // Listed before the device is made: a port that fails to come stays listed.
    this.#listAt(this.list.indexOf(undefined), { port, ...(pipe ? { pipe } : {}) })
    if (uid.id < 0 || (uid.type === 'ring' && !ring(uid.id))) return reply(false)
    takeSlot(this.slots, port) // a second add of a device finds the first
    return reply(true)
  }

  #listAt(at: number, entry: Listed) {
    this.list[at === -1 ? this.list.length : at] = entry
  }

  /**
   * SPP looks the port up in its list, then frees the slot at that position in the list, which
   * is the port's own slot only while the two stay in step (a failed add breaks that).
   */
  #del(line: string, token: string | undefined): Answer {
    const uid = uidArg(line, token)
    if (!isUid(uid)) return uid
    const port = uidText(uid)
    const reply = (ok: boolean) => result(ok, 'del', `,"port":"${port}"`)
    // Any other type leaves the position at 0: phy:0 is freed, and the reply says succeeded.
    const at = ADDABLE.has(uid.type) ? this.list.findIndex((e) => e?.port === port) : 0
    if (at === -1) return reply(false)
    this.list[at] = undefined
    if (this.keepsDeleted && this.forwarder) return reply(true)
    this.slots[at] = undefined
    this.patches.delete(at)
    // forward_array_remove at 8e72ea0: then the patch of the first port in use goes.
    const first = this.slots.findIndex((p) => p !== undefined)
    if (first !== -1) this.patches.delete(first)
    return reply(true)
  }

  #patch(line: string, tokens: string[]): Answer {
    const [, src, dst] = tokens
    if (src?.startsWith('reset')) this.patches.clear()
    if (src === undefined || src.startsWith('reset') || dst === undefined) return echo2020(line)
    const args = patchArgs(line, src, dst)
    if (!Array.isArray(args)) return args
    const [from, to] = args
    const ok = inSlots(this.slots, this.queues, from) && inSlots(this.slots, this.queues, to)
    const slot = (uid: Uid) => this.slots.indexOf(uidText(uid))
    if (ok) this.patches.set(slot(from), slot(to))
    return result(ok, 'patch', `,"ports":{"src":"${uidText(from)}","dst":"${uidText(to)}"}`)
  }
}
