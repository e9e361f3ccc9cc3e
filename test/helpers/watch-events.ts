// The controller's events as a test sees them: everything published from now on, and a wait for one.
import type { ControllerEvent, EventHub } from '../../src/observe/event-hub.ts'

/** A short view of an event: its type and data, as tests compare them. */
export type Seen = { type: string; data: Record<string, unknown> }

/** Records the hub's events; `until` resolves with the first one (from the start) that matches. */
export function watchEvents(hub: EventHub) {
  const seen: Seen[] = []
  const waiters = new Set<() => void>()
  const stop = hub.subscribe({
    push({ type, data }: ControllerEvent) {
      seen.push({ type, data })
      for (const wake of waiters) wake()
    },
    close() {},
  })
  return {
    seen,
    /** The first event so far or to come that matches; fails (never times) after 10 s. */
    until(match: (e: Seen) => boolean, what: string): Promise<Seen> {
      return new Promise((resolve, reject) => {
        // A failsafe, not a timing assertion: a missing event fails the test instead of hanging it.
        const failsafe = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`no ${what} event; seen: ${seen.map((e) => e.type).join(', ')}`))
        }, 10_000)
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
    stop,
  }
}

/** Whether an event is about this process (`vf:2`, `primary`). */
export const about = (e: Seen, process: string) => {
  const { kind, 'client-id': id } = e.data as { kind?: string; 'client-id'?: number }
  return (id === undefined ? kind : `${kind}:${id}`) === process
}
