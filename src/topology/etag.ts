// The ETag of a topology: its configuration only, so that traffic counters never make it stale.
import { createHash } from 'node:crypto'
import type { TopologyDocument } from './read-topology.ts'

/** A strong ETag of everything but the primary's counters (its port ids count). */
export function topologyEtag({ primary, nfvs, vfs, mirrors }: TopologyDocument): string {
  const config = {
    primary:
      'phy_ports' in primary
        ? {
            phy: primary.phy_ports.map(({ id, eth }) => [id, eth]),
            ring: primary.ring_ports.map(({ id }) => id),
          }
        : primary,
    nfvs,
    vfs,
    mirrors,
  }
  const hash = createHash('sha256').update(JSON.stringify(config)).digest('base64url')
  return `"${hash.slice(0, 27)}"`
}

/** Whether an If-Match header (`*`, or a list of ETags, weak ones never matching) matches. */
export function ifMatchHolds(header: string, etag: string): boolean {
  const tags = header.split(',').map((tag) => tag.trim())
  return tags.includes('*') || tags.includes(etag)
}

/**
 * Whether an If-None-Match header matches: `*`, or a list of ETags compared weakly (`W/"x"` is
 * `"x"`), as RFC 9110 asks of a GET's cache validation.
 */
export function ifNoneMatchHolds(header: string, etag: string): boolean {
  const tags = header.split(',').map((tag) => tag.trim().replace(/^W\//, ''))
  return tags.includes('*') || tags.includes(etag.replace(/^W\//, ''))
}
