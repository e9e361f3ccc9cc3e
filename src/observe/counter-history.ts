// The primary's traffic counters over time: its last status reads, each with the time it was
// answered, for the rates of the paths (src/topology/paths.ts) and of the `rates` events.
import type { Registry } from '../actors/registry.ts'
import type { PrimaryStatus } from '../protocol/bodies.ts'

/** One read of the primary's status and when it was answered (the status reads' clock, ms). */
export type CounterRead = { readonly status: PrimaryStatus; readonly at: number }

/** The newest read, and the newest before it by at least `MIN_WINDOW_MS` (none: no rates yet). */
export type ReadPair = { readonly newer: CounterRead; readonly older?: CounterRead | undefined }

/** A rate is taken over two reads at least this far apart (ms). */
export const MIN_WINDOW_MS = 1000
/**
 * A read this close to the one before the newest replaces the newest: one read is kept per this
 * much time, so that reads made for every request (--status-max-age 0) keep the history short.
 */
const SAME_INSTANT_MS = 50

/**
 * Every read of the primary's status, whoever asked for it (a dashboard, GET /v1/topology, the
 * rates pushed, a scrape): each settled `status` of the primary is kept with its time, the newest
 * first, as far back as the rates need (the newest at least a second older than the newest read).
 * A `clear` of the counters, and a primary that connects or goes, start the history again: no
 * rate is taken across them. Listeners hear each read kept (`onRead`).
 */
export class CounterHistory {
  readonly #now: () => number
  /** Oldest first. */
  #reads: CounterRead[] = []
  readonly #listeners = new Set<(pair: ReadPair) => void>()
  #version = 0

  /** `now`: the status reads' clock (ms). */
  constructor(now: () => number) {
    this.#now = now
  }

  /** Keeps every read of the primary a registry's processes settle; returns how to stop. */
  follow(registry: Registry): () => void {
    const stop = registry.changes((settled) => {
      if (settled.process.kind !== 'primary' || !settled.outcome.ok) return
      const effect = settled.outcome.value
      if (effect.kind === 'primary.read') this.push(effect.status, this.#now())
      else if (effect.kind === 'primary.clear') this.reset()
    })
    const primaryComesOrGoes = (process: { id: { kind: string } }) => {
      if (process.id.kind === 'primary') this.reset()
    }
    registry.on('registered', primaryComesOrGoes).on('removed', primaryComesOrGoes)
    return () => {
      stop()
      registry.off('registered', primaryComesOrGoes).off('removed', primaryComesOrGoes)
    }
  }

  /** Keeps a read answered at `at`. */
  push(status: PrimaryStatus, at: number): void {
    const before = this.#reads.at(-2)
    if (before && at - before.at < SAME_INSTANT_MS) this.#reads.pop()
    this.#reads.push({ status, at })
    // Kept: every read within the window of the newest, and the newest one beyond it.
    const edge = this.#olderIndex(at)
    if (edge > 0) this.#reads = this.#reads.slice(edge)
    this.#version++
    const pair = this.pair()!
    for (const listener of this.#listeners) listener(pair)
  }

  /** Forgets every read (the counters were cleared, or the primary is another one). */
  reset(): void {
    this.#reads = []
    this.#version++
  }

  /** The newest read and the one the rates are taken against; undefined before any read. */
  pair(): ReadPair | undefined {
    const newer = this.#reads.at(-1)
    if (!newer) return undefined
    return { newer, older: this.#reads[this.#olderIndex(newer.at)] }
  }

  /** The index of the newest read at least MIN_WINDOW_MS before `at`, or -1. */
  #olderIndex(at: number): number {
    let i = this.#reads.length - 1
    while (i >= 0 && at - this.#reads[i]!.at < MIN_WINDOW_MS) i--
    return i
  }

  /** Changes with every read kept and every reset: what was derived from an older one is stale. */
  get version(): number {
    return this.#version
  }

  /** The status reads' clock. */
  now(): number {
    return this.#now()
  }

  /** Calls `listener` with each read kept; returns how to stop. */
  onRead(listener: (pair: ReadPair) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}
