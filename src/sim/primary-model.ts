// spp_primary (18.11) as a simulator model: status, clear, exit; echoes the rest.
import { Traffic, type Stats } from './traffic.ts'
import { fixedReply, type Answer, type SimModel } from './wire.ts'

export type PhyStats = { id: number; eth: string; rx: number; tx: number; tx_drop: number }
export type RingStats = { id: number; rx: number; rx_drop: number; tx: number; tx_drop: number }

const NONE: Stats = { rx: 0, tx: 0, tx_drop: 0 }

/**
 * The one member a simulated primary's status has that SPP's never does: it says that its counters
 * are the simulator's, so that whoever shows them (the page) can say so. Last, after SPP's members.
 */
export const SIMULATOR = '"simulator": "spp-sim"'

/**
 * spp_primary: `status`, `clear`, `exit`; anything else is echoed. Its counters are its machine's
 * shared statistics (src/sim/traffic.ts), as the packets moved until the moment it is asked.
 */
export class PrimaryModel implements SimModel {
  readonly phyPorts: number
  /** Its rings (its `-n`): ring:0 to ring:N-1. */
  readonly ringCount: number
  readonly traffic: Traffic
  /**
   * 18.11 shows as a phy port's `tx_drop` the drops of the client entry of the same number (ring
   * N's), not the port's own: what the recording calls phy:0's tx_drop following ring:0's drops.
   */
  protected readonly phyDropsFromClients: boolean = true

  constructor({ phyPorts = 2, rings = 4, traffic = new Traffic() } = {}) {
    this.phyPorts = phyPorts
    this.ringCount = rings
    this.traffic = traffic
    traffic.clear() // a primary that starts zeroes the statistics
  }

  isStatus = (line: string) => line === 'status'

  handle(line: string): Answer {
    switch (line.split(' ').find(Boolean)) {
      case 'status':
        return { reply: fixedReply(this.#status()) }
      case 'clear':
        this.traffic.clear()
        return { reply: fixedReply('{"status": "cleared"}') }
      case 'exit':
        return { reply: fixedReply('exit'), exit: true }
      default:
        return { reply: fixedReply(line.replaceAll(' ', '\0')) }
    }
  }

  /** The counters its status shows now: each phy port's and each ring's. */
  counters(): { phy: PhyStats[]; rings: RingStats[] } {
    const stats = this.traffic.stats()
    const of = (key: string) => stats.get(key) ?? NONE
    const phy = Array.from({ length: this.phyPorts }, (_, id) => {
      const { rx, tx, tx_drop } = of(`phy:${id}`)
      const drops = this.phyDropsFromClients ? of(`client:${id}`).tx_drop : tx_drop
      const eth = `56:48:4f:53:54:${id.toString(16).padStart(2, '0')}`
      return { id, eth, rx, tx, tx_drop: drops }
    })
    const rings = Array.from({ length: this.ringCount }, (_, id) => {
      const { rx, tx, tx_drop } = of(`client:${id}`)
      return { id, rx, rx_drop: 0, tx, tx_drop } // nothing counts a ring's rx_drop
    })
    return { phy, rings }
  }

  // Byte layout of spp_primary: ", " between members, "," between elements, a space after colons.
  #status() {
    const { phy, rings } = this.counters()
    const phyText = phy.map(
      (p) =>
        `{"id": ${p.id}, "eth": "${p.eth}", "rx": ${p.rx}, "tx": ${p.tx}, "tx_drop": ${p.tx_drop}}`,
    )
    const ringText = rings.map(
      (r) =>
        `{"id": ${r.id}, "rx": ${r.rx}, "rx_drop": ${r.rx_drop}, "tx": ${r.tx}, "tx_drop": ${r.tx_drop}}`,
    )
    return `{"phy_ports": [${phyText.join(',')}], "ring_ports": [${ringText.join(',')}], ${SIMULATOR}}`
  }
}
