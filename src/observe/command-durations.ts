// Command durations for spp_command_duration_seconds, handed to prom-client's histogram in batches.
import type { Histogram } from './prom.ts'

/** Durations held back at most per series before they are handed over (a few KiB each). */
export const MAX_PENDING = 1024

type Series = { observed: Histogram.Internal<string>; pending: number[] }

/**
 * Each command's duration, kept as a number until the histogram is read (a scrape, or MAX_PENDING
 * of one series): prom-client's observe() finds the bucket and updates the counts in a walk over
 * its own objects, which at one request at a time costs 2-4 µs a command with cold caches; a
 * batch of them runs warm. A scrape sees every duration observed before it, so the metric reads
 * the same as one observed at once.
 */
export class CommandDurations {
  readonly #series = new Map<string, Series>()

  constructor(private readonly histogram: Histogram<'kind' | 'command'>) {}

  add(kind: string, command: string, seconds: number): void {
    // prom-client throws on what is not a finite number, which would fail every later scrape.
    if (!Number.isFinite(seconds)) return
    const key = `${kind} ${command}`
    let series = this.#series.get(key)
    if (!series) {
      series = { observed: this.histogram.labels({ kind, command }), pending: [] }
      this.#series.set(key, series)
    }
    if (series.pending.push(seconds) >= MAX_PENDING) handOver(series)
  }

  /** Hands every pending duration to the histogram (its `collect`, run before each scrape). */
  flush(): void {
    for (const series of this.#series.values()) handOver(series)
  }
}

// Taken out before they are observed: a throw half-way loses the rest, never counts one twice.
function handOver({ observed, pending }: Series) {
  for (const seconds of pending.splice(0)) observed.observe(seconds)
}
