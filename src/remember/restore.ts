// Restores: on every (re)connection of a process with a remembered configuration, after its first
// status read, plan it back and (--restore on) run the steps through its handle, as apply does.
import type { Logger } from 'pino'
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import { statusOf } from '../protocol/kinds/status.ts'
import { idText, type ProcessId } from '../protocol/process-id.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { ProcessKey, RememberedConfig } from '../store/store.ts'
import { driftOf, inSync, liveOf } from './drift.ts'
import type { Memory } from './memory.ts'
import { plan, shownStep, type Refusal } from '../topology/plan.ts'
import { desiredOf, idOfKey, storeKey } from '../topology/process-config.ts'
import type { SendChange } from '../topology/send-step.ts'
import { restoreOrder } from './restore-order.ts'
import { restoreRunner, who, type RestoreOutcome } from './restore-run.ts'

export type { RestoreOutcome } from './restore-run.ts'

/** --restore: restore drifted processes, only report them, or neither (they are still remembered). */
export type RestoreMode = 'on' | 'report' | 'off'

type Options = {
  registry: Registry
  memory: Memory
  hub: EventHub
  log: Logger
  mode: RestoreMode
  send: SendChange
  onOutcome: (outcome: RestoreOutcome) => void
  /** How long a step waits for a reader that is not connected yet (default 5000 ms). */
  arrivalMs?: number | undefined
}

// Code units, not localeCompare: names are ASCII ("nfv:1"), and a collator has node load ICU's
// data, 2-8 MiB of RSS for the rest of the process's life (issue 21).
const byName = (a: ProcessId, b: ProcessId) => {
  const [x, y] = [idText(a), idText(b)]
  return x < y ? -1 : x > y ? 1 : 0
}

/** Watches identifications and restores; `restore` serves POST /v1/topology/restore. */
export function startRestorer(options: Options) {
  const { registry, memory, hub, log, mode } = options
  const runner = restoreRunner(options)
  // Restores happen one process at a time: one that sends into a ring waits for its readers'.
  const order = restoreOrder({
    registry,
    remembered: () => memory.store.remembered(),
    arrivalMs: options.arrivalMs ?? 5000,
  })
  let primaryRead: Promise<unknown> = Promise.resolve()

  /** After a process's first status read: in sync, restored, reported, or refused. */
  async function identified(handle: ProcessHandle) {
    const ref = handle.id
    const process = idText(ref)
    try {
      await handle.ask(statusOf(ref.kind))
    } catch (error) {
      log.warn({ process, err: error }, 'first status read failed: not compared with memory')
      return
    }
    const key = storeKey(ref)
    const remembered = key && memory.store.recall(key)
    memory.setDrifting(ref, false)
    if (!key || !remembered) return
    if (ref.kind !== 'primary') await primaryRead // the rings it has, for the planner
    const drift = driftOf(registry, key, remembered)
    if (inSync(drift)) return log.info({ process }, 'process matches its remembered configuration')
    memory.setDrifting(ref, true)
    if (mode === 'off') return
    if (!drift.ok) {
      hub.publish('drift.detected', { ...who(ref), refused: drift.refusal })
      if (mode === 'on') runner.refused(ref, drift.refusal)
      return
    }
    const { steps, summary } = drift.plan
    if (mode === 'on')
      return void (await runner.run([ref], drift.plan, undefined, handle, order.gate))
    log.info({ process, steps: steps.length }, 'process drifts from its remembered configuration')
    // As GET /v1/topology/drift reports it (steps, summary), with `total`, the count it once was.
    const shown = steps.map(shownStep)
    hub.publish('drift.detected', { ...who(ref), steps: shown, summary, total: steps.length })
  }

  registry.on('registered', (handle) => {
    const turn = memory.exclusive(handle.id, () => identified(handle))
    order.track(handle.id, turn)
    if (handle.id.kind === 'primary') primaryRead = turn.catch(() => undefined)
    turn.catch((error: Error) => log.error({ err: error }, 'internal error in a restore'))
  })

  /** The named processes, once each one's turn comes, read afresh, planned and restored together. */
  async function restoreNow(keys: ProcessKey[], request: string) {
    const ids = keys.map(idOfKey).filter((id) => registry.has(id))
    await Promise.all(
      ids.map((id) =>
        registry
          .find(id)
          .ask(statusOf(id.kind))
          .catch(() => {}),
      ),
    )
    const wanted: [ProcessKey, RememberedConfig][] = []
    const refused: Record<string, Refusal> = {}
    for (const key of keys) {
      const config = memory.store.recall(key)
      if (!config) continue
      const drift = driftOf(registry, key, config)
      if (drift.ok) wanted.push([key, config])
      else {
        refused[idText(idOfKey(key))] = drift.refusal
        runner.refused(idOfKey(key), drift.refusal, request)
      }
    }
    const planned = plan(
      liveOf(
        registry,
        wanted.map(([key]) => idOfKey(key)),
      ),
      desiredOf(wanted),
    )
    // Each of them planned alone: together (the same live state, the same rings) they plan too.
    if (!planned.ok) throw new Error(`restore plan refused: ${planned.refusal.reason}`)
    const run = await runner.run(
      wanted.map(([key]) => idOfKey(key)),
      planned.plan,
      request,
      undefined,
      order.gate,
    )
    return { ...run, summary: planned.plan.summary, refused }
  }

  return {
    /**
     * POST /v1/topology/restore: these processes, each once its turn comes (taken in name order,
     * so that two restores never wait for each other); a refused one is left out and named.
     */
    restore(keys: ProcessKey[], request: string) {
      const refs = keys.map(idOfKey).sort(byName)
      const hold = (i: number): ReturnType<typeof restoreNow> =>
        i < refs.length ? memory.exclusive(refs[i]!, () => hold(i + 1)) : restoreNow(keys, request)
      return hold(0)
    },
  }
}

export type Restorer = ReturnType<typeof startRestorer>
