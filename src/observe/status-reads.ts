// Status reads shared by every reader: dashboards that poll a process, or all of them, cost the
// process one `status` per freshness bound, however many they are and however they poll.
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import type { Cause } from '../actors/settled.ts'
import type { ProcessKind } from '../protocol/bodies.ts'
import { statusOf, type StatusBody } from '../protocol/kinds/status.ts'
import { idText } from '../protocol/process-id.ts'

/** The default of `--status-max-age`: dashboards poll once a second. */
export const DEFAULT_STATUS_MAX_AGE_MS = 1000

/** A process's status as read: the decoded reply, and when it was answered (`now`'s clock). */
export type StatusRead<K extends ProcessKind = ProcessKind> = { body: StatusBody[K]; at: number }

export type StatusReadsOptions = {
  /** A read this recent (ms) answers again; 0: every reader has a read of its own. */
  maxAgeMs?: number
  /** Milliseconds on a monotonic clock (performance.now by default; a test moves its own). */
  now?: () => number
}

/** One process's last read (`text`: its JSON, to tell a read that shows nothing new) and the one under way. */
type Entry = { read?: StatusRead; text?: string; pending?: Promise<StatusRead> }

/**
 * The status of each process, read through its handle (an event of its actor, as any request's
 * read) at most once per `maxAgeMs` and shared by every reader meanwhile; readers that come while
 * a read is under way wait for it. A command that may have changed a process (any that is not a
 * read, answered or not) and a connection that comes or goes forget every read, so that the next
 * reader sees the change at once: one process's change can show in another's status (a ring a vf
 * creates is the primary's), and changes are rare beside the reads of dashboards. A read that
 * shows what the last one showed keeps the last one's body (the same object): what was built or
 * serialised from it stays good.
 */
export class StatusReads {
  readonly maxAgeMs: number
  readonly now: () => number
  readonly #entries = new Map<string, Entry>()
  readonly #forgotten = new Set<() => void>()

  constructor(registry: Registry, options: StatusReadsOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_STATUS_MAX_AGE_MS
    this.now = options.now ?? (() => performance.now())
    registry.changes((settled) => {
      if (!settled.read) this.#forget()
    })
    registry.on('registered', () => this.#forget())
    registry.on('removed', () => this.#forget())
  }

  /**
   * A read within the bound (`maxAgeMs`, --status-max-age unless the caller needs a newer one):
   * the last one, the one under way, or a new one (a failure is not kept); a new one is caused by
   * `cause` (the request that came first, as the log names it).
   */
  read(process: ProcessHandle, cause?: Cause, maxAgeMs = this.maxAgeMs): Promise<StatusRead> {
    const key = idText(process.id)
    let entry = this.#entries.get(key)
    const fresh = entry?.read && this.now() - entry.read.at < maxAgeMs
    if (fresh) return Promise.resolve(entry!.read!)
    if (entry?.pending) return entry.pending
    if (!entry) this.#entries.set(key, (entry = {}))
    const reading = entry
    const pending = process.ask(statusOf(process.id.kind), cause && { cause }).then(
      (body) => {
        // Forgotten meanwhile (a change): this read goes to those who waited for it, no further.
        const kept = this.#entries.get(key) === reading
        const text = JSON.stringify(body)
        const same = reading.read !== undefined && reading.text === text
        const read = { body: same ? reading.read!.body : body, at: this.now() }
        if (kept) Object.assign(reading, { read, text, pending: undefined })
        return read
      },
      (error: unknown) => {
        if (this.#entries.get(key) === reading) reading.pending = undefined
        throw error
      },
    )
    reading.pending = pending
    return pending
  }

  /** Calls `listener` each time the reads are forgotten; returns how to stop. */
  onForgotten(listener: () => void): () => void {
    this.#forgotten.add(listener)
    return () => this.#forgotten.delete(listener)
  }

  #forget() {
    this.#entries.clear()
    for (const listener of this.#forgotten) listener()
  }
}
