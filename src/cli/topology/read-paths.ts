// How `topology trace` and `check` read the paths: GET /v1/topology/paths, and when the
// controller has no recent rates, a second read of the counters --window later.
import { setTimeout as sleep } from 'node:timers/promises'
import type { PathsDocument } from '../../topology/path-document.ts'
import { ClientError, type ControllerClient } from '../controller-client.ts'

/** The paths as read, and how they were got. */
export type ReadPaths = {
  document: PathsDocument
  /** How old the controller's newest read of the counters was when it answered (ms). */
  ageMs: number | undefined
  /** Whether the command waited for a second read. */
  waited: boolean
}

/**
 * Whether the controller's rates can be used as they are: taken over two reads at most `windowS`
 * apart, with no hop still waiting for a rate (no pair yet, or counters that went down).
 */
export const recent = (document: PathsDocument, windowS: number) =>
  document.window_s !== null &&
  document.window_s <= windowS &&
  !document.hops.some((hop) => hop.verdict.verdict === 'unknown')

// A timer may fire a few ms before its time by the controller's clock: the second read waits this
// much more, so that it is always a read of its own, a whole window after the first.
const MARGIN_MS = 100

/**
 * The paths, with rates from two reads of the primary's counters at most `windowS` apart. The
 * controller's own are used when they are that recent (a dashboard following the rates keeps them
 * so); otherwise the first request's read is the first of the pair, and the command waits
 * `windowS` and asks again, which reads the counters anew (the status reads are shared for
 * --status-max-age: a longer one answers with the same read, and the rates stay missing). A
 * process the controller has not read yet is read first (GET /v1/topology), so that what it moves
 * is on the paths. `windowS` 0: never wait.
 */
export async function readPaths(client: ControllerClient, windowS: number): Promise<ReadPaths> {
  let read = await getPaths(client)
  if (read.document.not_read.length > 0) {
    await client.request('GET', '/v1/topology')
    read = await getPaths(client)
  }
  if (windowS === 0 || recent(read.document, windowS)) return { ...read, waited: false }
  await sleep(windowS * 1000 + MARGIN_MS)
  return { ...(await getPaths(client)), waited: true }
}

async function getPaths(client: ControllerClient) {
  const path = '/v1/topology/paths'
  const response = await client.fetch(path, { headers: client.headers })
  const text = await response.text()
  if (!response.ok) throw new ClientError(`GET ${path}: ${client.refusal(response, text)}`)
  const age = response.headers.get('x-status-age-ms')
  return {
    document: JSON.parse(text) as PathsDocument,
    ageMs: age === null ? undefined : Number(age),
  }
}

/**
 * Why the rates are missing, in words for an operator, when they are (after any wait): no
 * primary, no second read, or counters that went down.
 */
export function missingRates(read: ReadPaths, windowS: number): string | undefined {
  const { document, ageMs, waited } = read
  if (Object.keys(document.ports).length === 0)
    return 'the primary is not connected, or its counters were never read: SPP counts nothing without it'
  const unknown = document.hops.find((hop) => hop.verdict.verdict === 'unknown')
  if (document.window_s !== null && !unknown) return undefined
  if (unknown && document.window_s !== null) return unknown.verdict.reason
  if (!waited)
    return windowS === 0
      ? 'the controller has no two reads of the counters a second apart, and --window 0 does not wait for one'
      : 'no two reads of the counters a second apart'
  // The second request was answered with the first one's read: the reads are shared longer.
  const shared = ageMs !== undefined && ageMs >= windowS * 1000
  return shared
    ? `no second read of the counters within ${windowS} s: the controller answered with a read ${(ageMs / 1000).toFixed(1)} s old (its --status-max-age is longer than --window; give a longer --window)`
    : `no two reads of the counters a second apart within ${windowS} s`
}
