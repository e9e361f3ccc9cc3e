// What a reply does to a connection: the view after it, what the process has shown, and what the
// command did. Pure: the machine's `settle` action asks it once per reply.
import { learn, type Learnt } from '../protocol/release.ts'
import { ok, type Result } from '../protocol/result.ts'
import type { Effect } from '../protocol/effects.ts'
import { nextView, type ProcessView } from '../state/process-view.ts'
import type { Reply } from './job.ts'

/**
 * The view after a command settles with `reply` (decoded, or why there is none), what the process
 * has now shown, and what the command did; `fault`: a reply the view cannot take.
 */
export function settling(view: ProcessView, learnt: Learnt | undefined, reply: Reply) {
  if (!reply.ok) return { outcome: reply as Result<Effect>, after: view, learnt }
  const { effect } = reply.value
  const next = nextView(view, effect, Date.now())
  const shows = 'shows' in effect && learnt ? effect.shows : undefined
  return {
    outcome: ok(effect),
    after: next.ok ? next.value : view,
    learnt: shows ? learn(learnt!, shows) : learnt,
    fault: next.ok ? undefined : next.message,
  }
}
