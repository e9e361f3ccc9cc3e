// spp_primary as of 2020 (spp-protocol-2020 §4): compact status, JSON results, forwarder, flows.
import { PrimaryModel } from '../primary-model.ts'
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
}

/** spp_primary at 8e72ea0; counters grow between reads as in the 18.11 model. */
export class Primary2020Model extends PrimaryModel implements SimModel {
  readonly masterLcore: number
  readonly lcores: number[]
  readonly forwarder: boolean
  readonly queues: number[]
  /** The forwarder's ports by ethdev id (`phy:0`, `ring:1`, `udf`); a freed slot is reused. */
  readonly slots: (string | undefined)[]
  readonly patches = new Map<string, string>()
  readonly pipes = new Map<number, { rx: number; tx: number }>()
  /** Flow rules of each physical port, by ethdev id. */
  readonly flows: Rule[][]
  /** `launch` commands received, as (client id, program, arguments). */
  readonly launched: { clientId: number; name: string; args: string[] }[] = []
  running = false

  constructor({ phyQueues = [1, 1], rings = 4, ...o }: Primary2020Options = {}) {
    super({ phyPorts: phyQueues.length, rings })
    this.queues = phyQueues
    this.masterLcore = o.masterLcore ?? 0
    this.lcores = o.lcores ?? [this.masterLcore, this.masterLcore + 1]
    this.forwarder = o.forwarder ?? this.lcores.length > 1
    this.slots = phyQueues.map((_, n) => `phy:${n}`)
    this.flows = phyQueues.map(() => [])
  }

  override handle(line: string): Answer {
    const tokens = line.split(' ').filter(Boolean)
    switch (tokens[0]) {
      case undefined: // no check for an empty command before strcmp(token_list[0], …)
        return { exit: true, crash: 'NULL dereference on a command of only spaces' }
      case 'status': {
        const answer = reply2020(renderStatus(this))
        this.traffic()
        return answer
      }
      case 'clear':
        this.clearCounters()
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
        return reply2020(runFlow(tokens, this.flows))
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
    const ring = (n: number) => n >= 0 && n < this.rings.length
    if (uid.type === 'pipe') {
      const rx = parseUid(tokens[2])
      const tx = parseUid(tokens[3])
      const badRing = hazard(line, rx) ?? hazard(line, tx)
      if (badRing || typeof rx === 'string' || typeof tx === 'string') return badRing!
      if (rx.type !== 'ring' || tx.type !== 'ring' || !ring(rx.id) || !ring(tx.id))
        return reply(false)
      if (!this.pipes.has(uid.id)) this.pipes.set(uid.id, { rx: rx.id, tx: tx.id })
    } else if (uid.id < 0 || (uid.type === 'ring' && !ring(uid.id))) return reply(false)
    takeSlot(this.slots, port)
    return reply(true)
  }

  #del(line: string, token: string | undefined): Answer {
    const uid = uidArg(line, token)
    if (!isUid(uid)) return uid
    const port = uidText(uid)
    const reply = (ok: boolean) => result(ok, 'del', `,"port":"${port}"`)
    // Any other type leaves the device id at 0: slot 0 is reset, and the reply says succeeded.
    const slot = ADDABLE.has(uid.type) ? this.slots.indexOf(port) : 0
    if (slot === -1) return reply(false)
    const gone = this.slots[slot]
    this.slots[slot] = undefined
    if (uid.type === 'pipe') this.pipes.delete(uid.id)
    if (gone !== undefined) this.patches.delete(gone)
    for (const [src, dst] of this.patches) if (dst === gone) this.patches.delete(src)
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
    if (ok) this.patches.set(uidText(from), uidText(to))
    return result(ok, 'patch', `,"ports":{"src":"${uidText(from)}","dst":"${uidText(to)}"}`)
  }
}
