// One load figure: autocannon against a URL for a while, reduced to what the tables show.
import autocannon from 'autocannon'

/** One request autocannon sends. */
export type Load = { method: 'GET' | 'PUT'; path: string; body?: string }
/** What one load run measured. */
export type Figures = {
  rps: number
  /** Latency in ms: mean, median and 99th percentile. */
  mean: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  /** Percent of one core used by the server under test, where measured. */
  cpu?: number
}

/** Drives `url` with `connections` connections for `seconds` s, cycling through `target`. */
export async function load(
  url: string,
  target: Load | Load[],
  connections: number,
  seconds: number,
): Promise<Figures> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: Array.isArray(target) ? target : [target],
    headers: { 'content-type': 'application/json' },
  })
  return {
    rps: Math.round(result.requests.average),
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
    mean: round(sorted.reduce((sum, ms) => sum + ms, 0) / Math.max(1, sorted.length)),
    p50: round(at(0.5)),
    p99: round(at(0.99)),
    errors: 0,
    non2xx: 0,
  }
}
