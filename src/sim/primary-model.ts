// spp_primary (18.11) as a simulator model: status, clear, exit; echoes the rest.
import { fixedReply, type Answer, type SimModel } from './wire.ts'

type PhyStats = { id: number; eth: string; rx: number; tx: number; tx_drop: number }
type RingStats = { id: number; rx: number; rx_drop: number; tx: number; tx_drop: number }

/** spp_primary: `status`, `clear`, `exit`; anything else is echoed. Counters grow between reads. */
export class PrimaryModel implements SimModel {
  readonly phy: PhyStats[]
  readonly rings: RingStats[]

  constructor({ phyPorts = 2, rings = 4 } = {}) {
    this.phy = Array.from({ length: phyPorts }, (_, id) => ({
      id,
      eth: `56:48:4f:53:54:${id.toString(16).padStart(2, '0')}`,
      rx: 0,
      tx: 0,
      tx_drop: 0,
    }))
    this.rings = Array.from({ length: rings }, (_, id) => ({
      id,
      rx: 0,
      rx_drop: 0,
      tx: 0,
      tx_drop: 0,
    }))
  }

  isStatus = (line: string) => line === 'status'

  handle(line: string): Answer {
    switch (line.split(' ').find(Boolean)) {
      case 'status': {
        const reply = fixedReply(this.#status())
        this.traffic() // after the read, so the first status after `clear` shows zeros
        return { reply }
      }
      case 'clear':
        this.clearCounters()
        return { reply: fixedReply('{"status": "cleared"}') }
      case 'exit':
        return { reply: fixedReply('exit'), exit: true }
      default:
        return { reply: fixedReply(line.replaceAll(' ', '\0')) }
    }
  }

  // Byte layout of spp_primary: ", " between members, "," between elements, a space after colons.
  #status() {
    const phy = this.phy.map(
      (p) =>
        `{"id": ${p.id}, "eth": "${p.eth}", "rx": ${p.rx}, "tx": ${p.tx}, "tx_drop": ${p.tx_drop}}`,
    )
    const rings = this.rings.map(
      (r) =>
        `{"id": ${r.id}, "rx": ${r.rx}, "rx_drop": ${r.rx_drop}, "tx": ${r.tx}, "tx_drop": ${r.tx_drop}}`,
    )
    return `{"phy_ports": [${phy.join(',')}], "ring_ports": [${rings.join(',')}]}`
  }

  /** Zeroes every counter (`clear`). */
  clearCounters() {
    for (const p of this.phy) Object.assign(p, { rx: 0, tx: 0, tx_drop: 0 })
    for (const r of this.rings) Object.assign(r, { rx: 0, rx_drop: 0, tx: 0, tx_drop: 0 })
  }

  /** Lets packets flow between two reads of `status`. */
  traffic() {
    for (const p of this.phy)
      Object.assign(p, { rx: p.rx + 64 * (p.id + 1), tx: p.tx + 60 * (p.id + 1) })
    for (const r of this.rings) Object.assign(r, { rx: r.rx + 32, tx: r.tx + 32 })
  }
}
