// One load figure: wrk (when installed) or autocannon against a URL for a while, reduced to what
// the tables show. Latency percentiles are always the load generator's own.
import autocannon from 'autocannon'
import { findWrk, wrkLoad } from './wrk.ts'

/** One request the load generator sends. */
export type Load = { method: 'GET' | 'PUT'; path: string; body?: string }
/** What one load run measured. */
export type Figures = {
  rps: number
  /** Requests answered in the run. */
  requests: number
  /** Latency in ms: mean, median and 99th percentile. */
  mean: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  /** CPU time of the server under test per request answered, in µs, where measured. */
  cpuUs?: number
  /** Percent of one core the server under test used during the run, where measured. */
  cpu?: number
}
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

/** Latency figures of raw samples in ms, in the shape `load` gives. */
export function figuresOf(samplesMs: number[], seconds: number): Figures {
  const sorted = [...samplesMs].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  const round = (ms: number) => Math.round(ms * 100) / 100
  return {
    rps: Math.round(sorted.length / seconds),
    requests: sorted.length,
    mean: round(sorted.reduce((sum, ms) => sum + ms, 0) / Math.max(1, sorted.length)),
    p50: round(at(0.5)),
    p99: round(at(0.99)),
    errors: 0,
    non2xx: 0,
  }
}
