// What a reply does to a connection: the view after it, what the process has shown, and what the
// command did. Pure: the machine's guard that looks ahead at a reply and its `settle` action both
// ask, and share one result.
import { learn, type Learnt } from '../protocol/release.ts'
import { nextView, type ProcessView } from '../state/process-view.ts'
import { effectOfReply, type Job, type Outcome } from './job.ts'

/** What a reply settles: the command in flight, the view it applies to, what has been shown. */
export type Settling = {
  readonly inFlight?: { job: Job; sentAt: number }
  readonly view?: ProcessView
  readonly learnt?: Learnt
}

// A reply is worked out once: the guard and the action share the last result (both ask with the
// same context and reply, and the result is a pure function of them, so a miss only works it out
// again).
let last: { state: Settling; reply: Outcome; result: ReturnType<typeof settle> } | undefined

/**
 * The view after the command in flight settles with `reply`, what the process has shown, and
 * what the command did (`fault`: a reply the view cannot take); undefined with nothing in flight.
 */
export function settling(state: Settling, reply: Outcome) {
  const same =
    last?.state === state &&
    (last.reply === reply || (last.reply.ok && reply.ok && last.reply.value === reply.value))
  if (same) return last!.result
  const result = settle(state, reply)
  last = { state, reply, result }
  return result
}

function settle({ inFlight, view, learnt }: Settling, reply: Outcome) {
  if (!inFlight || !view) return undefined
  const outcome = effectOfReply(inFlight.job, reply)
  if (!outcome.ok) return { outcome, after: view, learnt }
  const next = nextView(view, outcome.value, Date.now())
  const shows = 'shows' in outcome.value && learnt ? outcome.value.shows : undefined
  return {
    outcome,
    after: next.ok ? next.value : view,
    learnt: shows ? learn(learnt!, shows) : learnt,
    fault: next.ok ? undefined : next.message,
  }
}
