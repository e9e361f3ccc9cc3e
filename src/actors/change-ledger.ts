// The changes each open cause has made so far: what a request's log line, and what is remembered
// of it, are made from once it ends.
import type { Cause, Settled } from './settled.ts'
import type { Registry } from './registry.ts'

/**
 * Collects, from the registry's one stream, the change commands of each cause between `begin` and
 * `end` (reads are not changes). Every settled change was written to its process: a command
 * refused before it was sent never settles.
 */
export class ChangeLedger {
  readonly #open = new Map<Cause, Settled[]>()

  constructor(registry: Registry) {
    registry.changes((settled) => {
      if (settled.read || !settled.cause) return
      this.#open.get(settled.cause)?.push(settled)
    })
  }

  /** Starts collecting the changes made for `cause`. */
  begin(cause: Cause): void {
    this.#open.set(cause, [])
  }

  /** Stops collecting for `cause`: its changes, in the order they were answered. */
  end(cause: Cause): Settled[] {
    const changes = this.#open.get(cause) ?? []
    this.#open.delete(cause)
    return changes
  }
}
