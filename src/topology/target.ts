// The configuration a plan starts from and the one it leads to, as the schedule reads them: what
// moves packets (movers.ts) and the primary's pipes. The target is the live document with every
// planned process as it is wanted (an absent field keeps the live value, as the planner keeps it).
// Pure; called once the planner has accepted the document.
import type { DesiredDocument } from './document.ts'
import type { MovingParts } from './movers.ts'
import { wantedNfv } from './plan-nfv.ts'
import { plansPrimary, wantedPrimary } from './plan-primary.ts'
import { isStatus, readPrimary } from './primary-forwarder.ts'
import type { TopologyDocument } from './read-topology.ts'
import type { Moving } from './schedule.ts'
import type { Context } from './steps.ts'

const readable = <T extends object>(state: T): state is Exclude<T, { error: string }> =>
  !('error' in state)

/** The live configuration: the document as read, and the primary's pipes. */
export function movingNow(live: TopologyDocument): Moving {
  const shown = isStatus(live.primary) ? readPrimary(live.primary) : undefined
  const primary = shown && !('error' in shown) ? shown : undefined
  const document: MovingParts = {
    ...live,
    primary: primary?.forwarder ? { forwarder: primary.forwarder } : {},
  }
  return { document, pipes: primary?.pipes ?? [] }
}

/** The configuration `desired` leads to from `live`. */
export function movingAfter(
  live: TopologyDocument,
  desired: DesiredDocument,
  context: Context,
): Moving {
  const now = movingNow(live)
  let { primary } = now.document
  let { pipes } = now
  if (plansPrimary(desired.primary)) {
    const wanted = wantedPrimary(live.primary, desired.primary, context)
    if (wanted) {
      primary = { forwarder: wanted.want }
      pipes = wanted.pipes
    }
  }
  const nfvs: NonNullable<MovingParts['nfvs']> = { ...live.nfvs }
  for (const [id, wanted] of Object.entries(desired.nfvs ?? {})) {
    const state = live.nfvs[id]
    if (state && readable(state)) nfvs[id] = wantedNfv(id, state, wanted, context)
  }
  const vfs: NonNullable<MovingParts['vfs']> = { ...live.vfs }
  for (const [id, wanted] of Object.entries(desired.vfs ?? {})) {
    const state = live.vfs[id]
    if (state && readable(state))
      vfs[id] = {
        components: wanted.components ?? state.components,
        classifier_table: wanted.classifier_table ?? state.classifier_table,
      }
  }
  const mirrors: NonNullable<MovingParts['mirrors']> = { ...live.mirrors }
  for (const [id, wanted] of Object.entries(desired.mirrors ?? {})) {
    const state = live.mirrors[id]
    if (state && readable(state) && wanted.components)
      mirrors[id] = { components: wanted.components }
  }
  return { document: { ...now.document, primary, nfvs, vfs, mirrors }, pipes }
}
