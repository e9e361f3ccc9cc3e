// The metric of the packets lost in the chain: at each port packets are sent into, as the
// primary counts them, labelled with who reads that port.
import { Counter, type Registry as MetricsRegistry } from './prom.ts'

/**
 * A port packets are sent into and the primary counts the drops of: its `tx_drop`, and its
 * readers (`vf:2 fwd1`, several joined by `,`; `none`; `link` for a phy port, whose packets
 * leave the host).
 */
export type DropPoint = { port: string; reader: string; dropped: number }

/**
 * `spp_packets_dropped_total{port, reader}`, worked out when scraped from the paths as the
 * controller knows them (no command is sent for it; the port counters' refresh reads the primary).
 */
export function dropMetrics(registry: MetricsRegistry, points: () => DropPoint[]) {
  new Counter({
    name: 'spp_packets_dropped_total',
    help: "Packets dropped where a chain sends them, as the primary counts them (a ring's tx_drop: full, its readers slower or none; a 2020 phy port's tx_drop), by the port and its readers (none: nothing reads it; link: a phy port); 18.11's phy tx_drop, which counts drops downstream of the port, is left out",
    labelNames: ['port', 'reader'],
    registers: [registry],
    collect() {
      this.reset()
      for (const { port, reader, dropped } of points()) this.inc({ port, reader }, dropped)
    },
  })
}
