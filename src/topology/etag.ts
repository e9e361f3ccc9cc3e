// The ETag of a topology: all of it but traffic counters, so that they never make it stale.
import { createHash } from 'node:crypto'
import { zeroCounters } from '../state/process-view.ts'
import { isStatus } from './primary-forwarder.ts'
import type { TopologyDocument } from './read-topology.ts'

/**
 * A strong ETag of the whole document but the primary's traffic counters: its ports' ids, eth
 * and flow rules count, and so does whatever else it shows (a 2020 primary's forwarder and pipes),
 * as do the pcaps.
 */
export function topologyEtag(document: TopologyDocument): string {
  const { primary } = document
  const config = { ...document, primary: isStatus(primary) ? zeroCounters(primary) : primary }
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
