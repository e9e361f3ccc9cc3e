// Restores: on every (re)connection of a process with a remembered configuration, after its first
// status read, plan it back and (--restore on) run the steps through the app, as apply does.
import type { Logger } from 'pino'
import { askStatus } from '../actors/ask.ts'
import { processLabel } from '../actors/label.ts'
import type { ProcessEntry, Registry } from '../actors/registry.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { ProcessKey, RememberedConfig } from '../store/store.ts'
import { driftOf, inSync, liveOf } from './drift.ts'
import type { Memory } from './memory.ts'
import { plan, type Plan, type Refusal } from './plan.ts'
import { desiredOf, processName, refOf, storeKey, type ProcessRef } from './process-config.ts'
import { processOfPath, runSteps, type Run } from './run-steps.ts'

/** --restore: restore drifted processes, only report them, or neither (they are still remembered). */
export type RestoreMode = 'on' | 'report' | 'off'

/**
 * Sends one restore step through the app, as the principal `restore` (with the id of the request
 * that asked for it, for POST /v1/topology/restore).
 */
export type RestoreDispatch = (
  path: string,
  init: RequestInit,
  request: string | undefined,
) => Response | Promise<Response>

/** How a restore ended, as spp_restores_total counts it. */
export type RestoreOutcome = 'done' | 'failed' | 'refused'

type Options = {
  registry: Registry
  memory: Memory
  hub: EventHub
  log: Logger
  mode: RestoreMode
  dispatch: RestoreDispatch
  onOutcome: (outcome: RestoreOutcome) => void
}

const who = ({ kind, clientId }: ProcessRef) =>
  clientId === undefined ? { kind } : { kind, 'client-id': clientId }
const byName = (a: ProcessRef, b: ProcessRef) => processName(a).localeCompare(processName(b))

/** Watches identifications and restores; `restore` serves POST /v1/topology/restore. */
export function startRestorer({ registry, memory, hub, log, mode, dispatch, onOutcome }: Options) {
  let count = 0
  let primaryRead: Promise<unknown> = Promise.resolve()

  // A plan the planner refuses: nothing is sent; a restore that was to run says why it did not.
  const refused = (ref: ProcessRef, refusal: Refusal, attempted: boolean) => {
    memory.setDrifting(ref, true)
    if (mode !== 'off') hub.publish('drift.detected', { ...who(ref), refused: refusal })
    if (!attempted) return
    onOutcome('refused')
    hub.publish('restore.failed', { ...who(ref), refused: refusal })
  }

  /** Runs a plan for these processes (they hold their turns); publishes each one's events. */
  async function run(refs: ProcessRef[], planned: Plan, request?: string, entry?: ProcessEntry) {
    const restore = request ?? `restore-${++count}`
    const stepsOf = (ref: ProcessRef) =>
      planned.steps.filter((s) => processOfPath(s.path) === processName(ref))
    for (const ref of refs) {
      const steps = stepsOf(ref)
      if (steps.length > 0)
        hub.publish('restore.started', { ...who(ref), restore, total: steps.length })
    }
    const result: Run = await runSteps(
      planned.steps,
      (step, number) => {
        // An automatic restore is for one connection: a process that went meanwhile is planned again.
        if (entry && entry.connection.getSnapshot().status !== 'active')
          return new Response(`${processLabel(entry)} disconnected during its restore`, {
            status: 503,
            headers: { 'X-Error-Code': 'PROCESS_UNAVAILABLE' },
          })
        const body = step.body === undefined ? undefined : JSON.stringify(step.body)
        const headers = {
          'Content-Type': 'application/json',
          'X-Request-Id': `${restore}.${number}`,
        }
        return dispatch(step.path, { method: step.method, headers, body }, request)
      },
      ({ process: _, ...report }) => {
        const ref = refs.find((r) => processName(r) === _)
        hub.publish('restore.step', { ...(ref ? who(ref) : {}), restore, ...report })
      },
    )
    for (const ref of refs) {
      const total = stepsOf(ref).length
      if (total === 0) continue
      const failed = result.failures.find((f) => processOfPath(f.path) === processName(ref))
      memory.setDrifting(ref, failed !== undefined)
      onOutcome(failed ? 'failed' : 'done')
      if (!failed) hub.publish('restore.done', { ...who(ref), restore, total, ms: result.ms })
      else {
        const { number, status, code, error } = failed
        hub.publish('restore.failed', { ...who(ref), restore, number, total, status, code, error })
      }
    }
    return result
  }

  /** After a process's first status read: in sync, restored, reported, or refused. */
  async function identified(entry: ProcessEntry) {
    const ref: ProcessRef = { kind: entry.kind, clientId: entry.clientId }
    try {
      await askStatus(entry.connection, entry.kind)
    } catch (error) {
      log.warn({ process: processLabel(entry), err: error }, 'first status read failed')
      return
    }
    const key = storeKey(ref)
    const remembered = key && memory.store.recall(key)
    memory.setDrifting(ref, false)
    if (!key || !remembered) return
    if (ref.kind !== 'primary') await primaryRead // the rings it has, for the planner
    const drift = driftOf(registry, key, remembered)
    if (inSync(drift)) return
    if (!drift.ok) return refused(ref, drift.refusal, mode === 'on')
    if (mode === 'on') return void (await run([ref], drift.plan, undefined, entry))
    memory.setDrifting(ref, true)
    const { steps, summary } = drift.plan
    if (mode === 'report')
      hub.publish('drift.detected', { ...who(ref), steps: steps.length, summary })
  }

  registry.on('registered', (entry) => {
    const turn = memory.exclusive({ kind: entry.kind, clientId: entry.clientId }, () =>
      identified(entry),
    )
    if (entry.kind === 'primary') primaryRead = turn.catch(() => undefined)
    turn.catch((error: Error) => log.error({ err: error }, 'internal error in a restore'))
  })

  /**
   * POST /v1/topology/restore: the named processes (default: every remembered one), each once its
   * turn comes, read afresh, planned and restored together. Refused ones are left out and named.
   */
  async function restore(keys: ProcessKey[], request: string) {
    const refs = keys.map(refOf).sort(byName)
    const hold = (i: number): ReturnType<typeof restoreNow> =>
      i < refs.length ? memory.exclusive(refs[i]!, () => hold(i + 1)) : restoreNow()
    const restoreNow = async () => {
      const connected = registry.entries().filter((e) => refs.some((r) => byName(r, e) === 0))
      await Promise.all(connected.map((e) => askStatus(e.connection, e.kind).catch(() => {})))
      const wanted: [ProcessKey, RememberedConfig][] = []
      const refusals: Record<string, Refusal> = {}
      for (const key of keys) {
        const config = memory.store.recall(key)
        if (!config) continue
        const drift = driftOf(registry, key, config)
        if (drift.ok) wanted.push([key, config])
        else refusals[processName(refOf(key))] = drift.refusal
      }
      for (const [name, refusal] of Object.entries(refusals))
        refused(
          refs.find((r) => processName(r) === name)!,
          refusal,
          true,
        )
      const planned = plan(
        liveOf(
          registry,
          wanted.map(([key]) => refOf(key)),
        ),
        desiredOf(wanted),
      )
      if (!planned.ok) throw new Error(`restore plan refused: ${planned.refusal.reason}`)
      const result = await run(
        wanted.map(([key]) => refOf(key)),
        planned.plan,
        request,
      )
      return { ...result, summary: planned.plan.summary, refused: refusals }
    }
    return hold(0)
  }

  return { restore }
}

export type Restorer = ReturnType<typeof startRestorer>
