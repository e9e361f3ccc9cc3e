// The controller's events as a test sees them: everything published from now on, and a wait for one.
import type { ControllerEvent, EventHub } from '../../src/observe/event-hub.ts'

/** A short view of an event: its type and data, as tests compare them. */
export type Seen = { type: string; data: Record<string, unknown> }

/**
 * What a test has seen so far (`add` as it comes) and a wait for it: `until` resolves with the
 * first item, so far or to come, that matches; it fails (never times) after `ms`.
 */
export function seenSoFar<T>(ms = 10_000) {
  const seen: T[] = []
  const waiters = new Set<() => void>()
  return {
    seen,
    add(item: T) {
      seen.push(item)
      for (const wake of waiters) wake()
    },
    until(match: (item: T) => boolean, missing: () => string): Promise<T> {
      return new Promise((resolve, reject) => {
        // A failsafe, not a timing assertion: a missing item fails the test instead of hanging it.
        const failsafe = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(missing()))
        }, ms)
        const check = () => {
          const hit = seen.find(match)
          if (!hit) return
          waiters.delete(check)
          clearTimeout(failsafe)
          resolve(hit)
        }
        waiters.add(check)
        check()
      })
    },
  }
}

/** Records the hub's events; `until` resolves with the first one (from the start) that matches. */
export function watchEvents(hub: EventHub) {
  const events = seenSoFar<Seen>()
  const stop = hub.subscribe({
    push: ({ type, data }: ControllerEvent) => events.add({ type, data }),
    close() {},
  })
  return {
    seen: events.seen,
    /** The first event so far or to come that matches; fails (never times) after 10 s. */
    until: (match: (e: Seen) => boolean, what: string): Promise<Seen> =>
      events.until(
        match,
        () => `no ${what} event; seen: ${events.seen.map((e) => e.type).join(', ')}`,
      ),
    stop,
  }
}

/** Whether an event is about this process (`vf:2`, `primary`). */
export const about = (e: Seen, process: string) => {
  const { kind, 'client-id': id } = e.data as { kind?: string; 'client-id'?: number }
  return (id === undefined ? kind : `${kind}:${id}`) === process
}
