// Where the chain can lose packets, as the metrics count them (src/observe/drop-metrics.ts).
import type { DropPoint } from '../observe/drop-metrics.ts'
import { deviceOf } from './movers.ts'
import type { PathsDocument } from './path-document.ts'
import { DOWNSTREAM_NOTE } from './paths.ts'

/**
 * Each port a hop sends into whose drops the primary counts (a ring, a phy port), once, with its
 * `tx_drop` and its readers as the hops name them; a phy port's `tx_drop` that counts what was lost
 * downstream (18.11) is not the port's, and is left out.
 */
export function dropPoints(document: PathsDocument): DropPoint[] {
  const points = new Map<string, DropPoint>()
  for (const hop of document.hops) {
    if (hop.to === null) continue
    const port = deviceOf(hop.to)
    const counter = document.ports[port]?.tx_drop
    if (points.has(port) || !counter || counter.note === DOWNSTREAM_NOTE) continue
    points.set(port, { port, reader: readerOf(document, port), dropped: counter.value })
  }
  return [...points.values()]
}

/** Who reads a port: a ring's movers (each once, in the hops' order), or a phy port's link. */
function readerOf(document: PathsDocument, port: string): string {
  if (!port.startsWith('ring:')) return 'link'
  const readers = new Set(
    document.hops.filter((hop) => deviceOf(hop.from) === port).map((hop) => hop.by.label),
  )
  return readers.size === 0 ? 'none' : [...readers].join(',')
}
