// The planner: live document + desired document -> the ordered REST requests, or a refusal. Pure.
import type { MirrorInfo, NfvInfo, SecondaryKind, VfInfo } from '../protocol/bodies.ts'
import {
  notConnected,
  PRIMARY,
  processId,
  SECTIONS,
  type ProcessId,
} from '../protocol/process-id.ts'
import type { DesiredDocument } from './document.ts'
import { planComponents } from './plan-components.ts'
import { planNfv } from './plan-nfv.ts'
import { planPrimary, plansPrimary } from './plan-primary.ts'
import type { TopologyDocument, Unreadable } from './read-topology.ts'
import { schedule } from './schedule.ts'
import { Refused, type Context, type Phased, type PlanResult } from './steps.ts'
import { movingAfter, movingNow } from './target.ts'

export type { Plan, PlanResult, Refusal, Shown, ShownPlan, Step, Warning } from './steps.ts'
export { shownPlan, shownStep } from './steps.ts'

const isUnreadable = (state: object): state is Unreadable => 'error' in state
/** The error a document shows for a process that is remembered but not connected (drift). */
const NOT_CONNECTED = 'not connected'

/** The processes a live document shows connected (read or not), as the 404 of a request lists them. */
function connectedOf(live: TopologyDocument): ProcessId[] {
  const there = (state: object) =>
    Object.keys(state).length > 0 && !(isUnreadable(state) && state.error === NOT_CONNECTED)
  const ids: ProcessId[] = there(live.primary) ? [PRIMARY] : []
  for (const kind of ['nfv', 'vf', 'mirror', 'pcap'] as const)
    for (const [id, state] of Object.entries<object>(live[SECTIONS[kind]] ?? {}))
      if (there(state)) ids.push(processId(kind, Number(id)))
  return ids
}

function liveOf<T extends object>(
  live: TopologyDocument,
  section: Record<string, T | Unreadable>,
  kind: SecondaryKind,
  id: string,
  field: string,
): T {
  const state = section[id] ?? { error: NOT_CONNECTED }
  if (state && isUnreadable(state)) {
    throw new Refused(
      field,
      state.error === NOT_CONNECTED
        ? notConnected(processId(kind, Number(id)), connectedOf(live))
        : `${kind} ${id} could not be read: ${state.error}`,
    )
  }
  return state
}

/** The processes a desired document plans, as `vf:2`. */
const plannedBy = (desired: DesiredDocument) =>
  new Set([
    ...(plansPrimary(desired.primary) ? ['primary'] : []),
    ...(['nfvs', 'vfs', 'mirrors'] as const).flatMap((section) =>
      Object.keys(desired[section] ?? {}).map((id) => `${section.slice(0, -1)}:${id}`),
    ),
  ])

/**
 * Plans every process of the desired document against the live one, in the safe order: each
 * process's steps by the design note's phases, then scheduled across processes (schedule.ts).
 */
export function plan(live: TopologyDocument, desired: DesiredDocument): PlanResult {
  const { primary } = live
  const context: Context =
    'ring_ports' in primary ? { rings: new Set(primary.ring_ports.map((r) => r.id)) } : {}
  try {
    const phased: Phased[] = []
    if (plansPrimary(desired.primary))
      phased.push(...planPrimary(primary, desired.primary, context))
    for (const [id, wanted] of Object.entries(desired.vfs ?? {})) {
      const field = `vfs.${id}`
      const state = liveOf<VfInfo>(live, live.vfs, 'vf', id, field)
      phased.push(...planComponents('vf', id, state, wanted, context, field))
    }
    for (const [id, wanted] of Object.entries(desired.mirrors ?? {})) {
      const field = `mirrors.${id}`
      const state = liveOf<MirrorInfo>(live, live.mirrors, 'mirror', id, field)
      phased.push(...planComponents('mirror', id, state, wanted, context, field))
    }
    for (const [id, wanted] of Object.entries(desired.nfvs ?? {})) {
      const field = `nfvs.${id}`
      phased.push(
        ...planNfv(id, liveOf<NfvInfo>(live, live.nfvs, 'nfv', id, field), wanted, context),
      )
    }
    // Stable: within a phase, each process's steps keep the order its planner gave them.
    const phasedSteps = phased.sort((a, b) => a.phase - b.phase).map(({ step }) => step)
    const { steps, warnings } = schedule(
      phasedSteps,
      movingNow(live),
      movingAfter(live, desired, context),
      plannedBy(desired),
    )
    const summary: Record<string, number> = {}
    for (const { action } of steps) summary[action] = (summary[action] ?? 0) + 1
    return { ok: true, plan: { steps, summary, warnings } }
  } catch (error) {
    if (error instanceof Refused)
      return { ok: false, refusal: { field: error.field, reason: error.message } }
    throw error
  }
}
