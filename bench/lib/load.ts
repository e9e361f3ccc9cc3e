// One load figure: wrk (when installed) or autocannon against a URL for a while, reduced to what
// the tables show. Latency percentiles are always the load generator's own.
import autocannon from 'autocannon'
import type { Figures, Load } from './figures.ts'
import { findWrk, wrkLoad } from './wrk.ts'

/** The load generator that runs: `wrk` if installed (or asked for), else `autocannon`. */
export type Generator = { name: 'wrk'; path: string } | { name: 'autocannon' }

/** wrk when it is on PATH, unless autocannon is asked for. */
export function chooseGenerator(wanted?: string): Generator {
  const wrk = findWrk()
  if (wanted === 'autocannon') return { name: 'autocannon' }
  if (wrk) return { name: 'wrk', path: wrk }
  if (wanted === 'wrk') throw new Error('wrk is not installed (apt-get install wrk)')
  return { name: 'autocannon' }
}

/** Drives `url` with `connections` connections for `seconds` s, cycling through `target`. */
export async function load(
  generator: Generator,
  url: string,
  target: Load | Load[],
  connections: number,
  seconds: number,
): Promise<Figures> {
  const targets = Array.isArray(target) ? target : [target]
  if (generator.name === 'wrk') return wrkLoad(generator.path, url, targets, connections, seconds)
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: targets,
    headers: { 'content-type': 'application/json' },
  })
  return {
    rps: Math.round(result.requests.total / seconds),
    requests: result.requests.total,
    mean: Math.round(result.latency.average * 100) / 100,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }
}
