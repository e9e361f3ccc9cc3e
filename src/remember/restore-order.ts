// The order of restores across processes (issue 42): each process is restored on its own, as it
// connects, so the schedule of one restore's plan cannot see the others. A restore's step that
// makes packets flow into a ring waits until the other processes remembered to read that ring read
// it: one being restored, once its restore is over; one not connected yet, for as long as a
// process takes to connect and identify. A reader still not reading it then (its restore failed,
// or was refused) leaves the step unsent, as apply leaves a sender whose reader failed.
import type { Registry } from '../actors/registry.ts'
import { idText, type ProcessId } from '../protocol/process-id.ts'
import type { RememberedDocument } from '../store/store.ts'
import { deviceOf, moversOf } from '../topology/movers.ts'
import { desiredOf, entriesOf, idOfKey } from '../topology/process-config.ts'
import type { Step } from '../topology/steps.ts'
import { liveOf } from './drift.ts'

type Options = {
  registry: Registry
  /** What is remembered of every process now. */
  remembered: () => RememberedDocument
  /** How long to wait for a reader that is not connected: a connection identifies within it. */
  arrivalMs: number
}

/** Whether a configuration has a running mover of `process` reading `ring`. */
const reads = (document: Parameters<typeof moversOf>[0], process: string, ring: string) =>
  moversOf(document).some(
    (m) => m.process === process && m.running && m.reads.some((p) => deviceOf(p) === ring),
  )

/** Tracks the restores under way; `gate` holds a restore's sending steps back as above. */
export function restoreOrder({ registry, remembered, arrivalMs }: Options) {
  /** Each process's identification and restore under way, as its turn. */
  const turns = new Map<string, Promise<unknown>>()
  /** Whom each restore waits for now: a wait that would close a loop is not made. */
  const waitsFor = new Map<string, Set<string>>()
  /** Whether `from` waits, through others maybe, for `to`. */
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    from === to ||
    [...(waitsFor.get(from) ?? [])].some(
      (next) => !seen.has(next) && (seen.add(next), reaches(next, to, seen)),
    )
  const arrivals = new Map<string, Set<() => void>>()

  /** Resolves once `name` connects (its turn tracked), or after `arrivalMs`. */
  const arrival = (name: string) =>
    new Promise<void>((resolve) => {
      const wakes = arrivals.get(name) ?? new Set()
      arrivals.set(name, wakes)
      const wake = () => {
        clearTimeout(timer)
        wakes.delete(wake)
        if (wakes.size === 0) arrivals.delete(name)
        resolve()
      }
      const timer = setTimeout(wake, arrivalMs)
      timer.unref() // a controller that stops does not wait for it
      wakes.add(wake)
    })

  return {
    /** A process's turn (its first read and its restore), from its registration on. */
    track(id: ProcessId, turn: Promise<unknown>) {
      const name = idText(id)
      const over = turn.then(
        () => undefined,
        () => undefined,
      )
      turns.set(name, over)
      void over.then(() => turns.get(name) === over && turns.delete(name))
      for (const wake of [...(arrivals.get(name) ?? [])]) wake()
    },

    /** Whether a restore's step may be sent, once the readers of the rings it sends into read them. */
    gate: (step: Step): boolean | Promise<boolean> => {
      const self = idText(step.process)
      // The other processes remembered to read a ring the step sends into, and those rings.
      const readers = entriesOf(remembered()).flatMap(([key, config]) => {
        const id = idOfKey(key)
        const { pcaps: _, ...document } = desiredOf([[key, config]])
        const ringsRead = (step.sends ?? []).filter((ring) => reads(document, idText(id), ring))
        return idText(id) !== self && ringsRead.length > 0 ? [{ id, ringsRead }] : []
      })
      if (readers.length === 0) return true
      return (async () => {
        // A reader whose restore waits for this one's is neither waited for nor checked: the two
        // feed each other in a loop, which one of them has to start (as apply breaks a loop).
        const looped = new Set<string>()
        const mine = new Set<string>()
        waitsFor.set(self, mine)
        try {
          for (const { id } of readers) {
            const name = idText(id)
            if (reaches(name, self)) {
              looped.add(name)
              continue
            }
            mine.add(name) // made only where it closes no loop: none ever forms
            if (!registry.has(id)) await arrival(name)
            await turns.get(name)
            mine.delete(name)
          }
        } finally {
          waitsFor.delete(self)
        }
        // A reader that did not come is not waited for (as apply plans only those connected).
        const there = readers.filter(({ id }) => registry.has(id) && !looped.has(idText(id)))
        const now = liveOf(
          registry,
          there.map(({ id }) => id),
        )
        return there.every(({ id, ringsRead }) =>
          ringsRead.every((ring) => reads(now, idText(id), ring)),
        )
      })()
    },
  }
}
export type RestoreOrder = ReturnType<typeof restoreOrder>
