// One figure of a server under test: a warm-up, then the load generator's run with the server's
// CPU time read from /proc just before and just after it.
import type { Server } from './baselines.ts'
import { load, type Figures, type Generator, type Load } from './load.ts'
import { cpuSeconds, switches } from './proc.ts'
import { monotonicUs } from './profile.ts'

/** A figure and the window it was measured in (µs of the monotonic clock, as profiles count). */
export type Measured = Figures & {
  window: [number, number]
  /** Context switches of the server's main thread per request: waits, and preemptions. */
  waitsPerRequest?: number
  preemptionsPerRequest?: number
  runs?: Figures[]
}

/** Loads `server` for 1 s, then for `seconds` s measuring its CPU time per request answered. */
export async function measure(
  generator: Generator,
  server: Server,
  target: Load | Load[],
  connections: number,
  seconds: number,
): Promise<Measured> {
  await load(generator, server.url, target, connections, 1)
  const from = monotonicUs()
  const before = cpuSeconds(server.pid)
  const switched = switches(server.pid)
  const figures = await load(generator, server.url, target, connections, seconds)
  const cpu = cpuSeconds(server.pid) - before
  const { voluntary, involuntary } = switches(server.pid)
  const to = monotonicUs()
  const perRequest = (n: number) => Math.round((100 * n) / Math.max(1, figures.requests)) / 100
  return {
    ...figures,
    cpuUs: figures.requests > 0 ? Math.round((cpu * 1e6) / figures.requests) : NaN,
    cpu: Math.round((100 * cpu * 1e6) / (to - from)),
    window: [from, to],
    waitsPerRequest: perRequest(voluntary - switched.voluntary),
    preemptionsPerRequest: perRequest(involuntary - switched.involuntary),
  }
}

/** Each field the median of its runs (for `--repeat`: a burst of other work hits one run). */
export function medianOf(runs: Measured[]): Measured {
  if (runs.length === 1) return runs[0]!
  const mid = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    const half = sorted.length >> 1
    const middle = sorted.length % 2 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2
    return Math.round(middle * 100) / 100 // no 0.44999999999999996 in the tables
  }
  const field = (key: 'rps' | 'requests' | 'mean' | 'p50' | 'p99' | 'cpuUs' | 'cpu') =>
    mid(runs.map((r) => r[key] ?? NaN))
  return {
    rps: field('rps'),
    requests: field('requests'),
    mean: field('mean'),
    p50: field('p50'),
    p99: field('p99'),
    errors: Math.max(...runs.map((r) => r.errors)),
    non2xx: Math.max(...runs.map((r) => r.non2xx)),
    cpuUs: field('cpuUs'),
    cpu: field('cpu'),
    waitsPerRequest: mid(runs.map((r) => r.waitsPerRequest ?? NaN)),
    preemptionsPerRequest: mid(runs.map((r) => r.preemptionsPerRequest ?? NaN)),
    window: [runs[0]!.window[0], runs.at(-1)!.window[1]],
    runs: runs.map(({ window: _, ...figures }) => figures),
  }
}
