// A connection's one timer: it expires when the reply awaited now is due, and costs no timer per command.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { SimulatedClock } from 'xstate'
import { ReplyDeadline } from '../../src/actors/reply-deadline.ts'

/** A simulated clock that counts the timers set on it and knows how many are pending. */
function countingClock() {
  const clock = new SimulatedClock()
  const pending = new Set<number>()
  let set = 0
  return {
    clock: {
      now: () => clock.now(),
      setTimeout(fn: () => void, ms: number) {
        set++
        const id = clock.setTimeout(() => {
          pending.delete(id)
          fn()
        }, ms)
        pending.add(id)
        return id
      },
      clearTimeout(id: unknown) {
        pending.delete(id as number)
        clock.clearTimeout(id as number)
      },
    },
    increment: (ms: number) => clock.increment(ms),
    set: () => set,
    pending: () => pending.size,
  }
}

test('an armed deadline expires when it is due on the clock, not a moment before', () => {
  const c = countingClock()
  let expired = 0
  const deadline = new ReplyDeadline(c.clock, () => expired++)
  deadline.arm(1000)
  c.increment(999)
  assert.is(expired, 0)
  c.increment(1)
  assert.is(expired, 1)
  assert.is(deadline.armed, false)
  c.increment(5000)
  assert.is(expired, 1, 'once per armed deadline')
})

test('commands answered in time cost no timer; the one in flight expires at its own deadline', () => {
  const c = countingClock()
  let expired = 0
  const deadline = new ReplyDeadline(c.clock, () => expired++)
  for (let i = 0; i < 1000; i++) {
    deadline.arm(1000) // written
    deadline.disarm() // answered
  }
  assert.is(c.set(), 1, 'a thousand commands, one timer')
  c.increment(600)
  deadline.arm(1000) // written at 600: due at 1600
  c.increment(400) // the timer set at 0 fires at 1000, early for this command: set again
  assert.is(expired, 0)
  assert.is(c.set(), 2)
  c.increment(599)
  assert.is(expired, 0)
  c.increment(1)
  assert.is(expired, 1)
})

test('a timer that finds nothing armed is not set again; the next arm sets one', () => {
  const c = countingClock()
  let expired = 0
  const deadline = new ReplyDeadline(c.clock, () => expired++)
  deadline.arm(1000)
  deadline.disarm()
  c.increment(1000)
  assert.is(c.pending(), 0)
  assert.is(expired, 0)
  deadline.arm(1000)
  assert.is(c.pending(), 1)
  c.increment(1000)
  assert.is(expired, 1)
})

test('a shorter deadline than the timer pending sets the timer sooner', () => {
  const c = countingClock()
  let expired = 0
  const deadline = new ReplyDeadline(c.clock, () => expired++)
  deadline.arm(5000)
  deadline.arm(100)
  c.increment(100)
  assert.is(expired, 1)
  assert.is(c.pending(), 0, 'the longer timer was cleared')
})

test('stop disarms and lets the timer go', () => {
  const c = countingClock()
  let expired = 0
  const deadline = new ReplyDeadline(c.clock, () => expired++)
  deadline.arm(1000)
  deadline.stop()
  assert.is(c.pending(), 0)
  c.increment(2000)
  assert.is(expired, 0)
})

test.run()
