// A clock whose timers fire when the test says (a confirmation's deadline), never by themselves.
import type { Clock } from '../../src/remember/confirmation.ts'

type Timer = { ms: number; fire: () => void; cancelled: boolean }

/** `timers`: every timer set, in order; `fire()` runs the last one set (unless cancelled). */
export function testClock(start = Date.UTC(2026, 0, 1)) {
  let now = start
  const timers: Timer[] = []
  const clock: Clock = {
    now: () => now,
    after(ms, fire) {
      const timer = { ms, fire, cancelled: false }
      timers.push(timer)
      return () => void (timer.cancelled = true)
    },
  }
  return {
    clock,
    timers,
    /** Moves the time on by `ms`, then runs the last timer set, as its deadline would. */
    fire(ms = timers.at(-1)?.ms ?? 0) {
      now += ms
      const timer = timers.at(-1)
      if (!timer) throw new Error('no timer was set')
      if (timer.cancelled) throw new Error('the timer was cancelled')
      timer.fire()
    },
  }
}
