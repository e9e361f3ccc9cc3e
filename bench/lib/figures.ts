// What one load run measured, and the requests a load generator sends: shared by the generators
// (wrk, autocannon) and the cases that read their figures.

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

/** The median and 99th percentile of samples in ms (0 without samples), to 0.01 ms. */
export function percentiles(samplesMs: number[]): { p50: number; p99: number } {
  const sorted = [...samplesMs].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  const round = (ms: number) => Math.round(ms * 100) / 100
  return { p50: round(at(0.5)), p99: round(at(0.99)) }
}
