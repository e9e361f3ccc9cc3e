// Runs a restore's planned steps through the processes' handles, and tells it per process: started,
// each step, and done or failed (events, log lines, the restores counted).
import type { Logger } from 'pino'
import type { ProcessHandle } from '../actors/process-handle.ts'
import { idText, type ProcessId } from '../protocol/process-id.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { Memory } from './memory.ts'
import type { Plan, Refusal } from '../topology/plan.ts'
import { runSteps, type Gate, type Run } from '../topology/run-steps.ts'
import type { SendChange } from '../topology/send-step.ts'

/** How a restore ended, as spp_restores_total counts it. */
export type RestoreOutcome = 'done' | 'failed' | 'refused'

type Options = {
  memory: Memory
  hub: EventHub
  log: Logger
  /** Runs one step as its cause (src/topology/send-step.ts). */
  send: SendChange
  onOutcome: (outcome: RestoreOutcome) => void
}

/** A process as events name it: `{"kind": "vf", "client-id": 2}`. */
export const who = ({ kind, clientId }: ProcessId) =>
  clientId === undefined ? { kind } : { kind, 'client-id': clientId }

/** Runs restores, each under an id of its own (`restore-3`) or of the request that asked for it. */
export function restoreRunner({ memory, hub, log, send, onOutcome }: Options) {
  let count = 0
  return {
    /** A restore the planner refuses: nothing is sent, and it is drift (with the reason). */
    refused(ref: ProcessId, refusal: Refusal, request?: string) {
      memory.setDrifting(ref, true)
      onOutcome('refused')
      const restore = request ?? `restore-${++count}`
      log.warn(
        { by: 'restore', restore, process: idText(ref), refused: refusal },
        'restore refused',
      )
      hub.publish('restore.failed', { ...who(ref), restore, refused: refusal })
    },

    /**
     * Runs a plan of these processes (which hold their turns). `connection`: the connection an
     * automatic restore is for; if it goes meanwhile, the rest is not sent (the next one is planned
     * afresh). `gate`: whether a step that sends into a ring may go (restore-order.ts); one held
     * back is not sent, nor the rest of its process's, and the process is not restored.
     */
    async run(
      refs: ProcessId[],
      planned: Plan,
      request?: string,
      connection?: ProcessHandle,
      gate?: Gate,
    ) {
      const restore = request ?? `restore-${++count}`
      // Each process's steps are counted in its own restore: `3 of 7` is the vf's third step.
      const own = new Map<string, number[]>()
      for (const [i, step] of planned.steps.entries()) {
        const name = idText(step.process)
        own.set(name, [...(own.get(name) ?? []), i + 1])
      }
      const ref = (name: string) => refs.find((r) => idText(r) === name)!
      for (const [name, numbers] of own)
        hub.publish('restore.started', { ...who(ref(name)), restore, total: numbers.length })
      // Journaled as `restore` (or `restore ID` for POST /v1/topology/restore); a restore's own
      // steps do not wait behind the restore (memory.ts's gate), and leave what is remembered.
      const by = request === undefined ? 'restore' : `restore ${request}`
      const result: Run = await runSteps(
        planned.steps,
        (step, number) => {
          if (connection && !connection.describe().open)
            return {
              ok: false,
              status: 503,
              code: 'PROCESS_UNAVAILABLE',
              error: `${idText(connection.id)} disconnected during its restore`,
            }
          return send(step, { requestId: `${restore}.${number}`, by, restoring: true })
        },
        ({ process, number: at, total: _, ...report }) => {
          const numbers = own.get(process)!
          const [number, total] = [numbers.indexOf(at) + 1, numbers.length]
          hub.publish('restore.step', { ...who(ref(process)), restore, number, total, ...report })
          const { method, path, ms } = report
          const fields = { by: 'restore', restore, process, number, total, method, path, ms }
          if (report.outcome === 'done') log.info(fields, 'restore step done')
          else
            log.warn({ ...fields, status: report.status }, `restore step failed: ${report.error}`)
        },
        gate,
      )
      for (const [name, numbers] of own) {
        const total = numbers.length
        const failed = result.failures.find((f) => idText(f.process) === name)
        const held = result.skipped.find((s) => idText(s.process) === name)
        memory.setDrifting(ref(name), failed !== undefined || held !== undefined)
        onOutcome(failed || held ? 'failed' : 'done')
        const fields = { ...who(ref(name)), restore, total }
        if (!failed && held) {
          // Held back: a ring it sends into is not read by a process remembered to read it.
          const number = numbers.indexOf(held.number) + 1
          const rings = held.sends?.join(', ') ?? ''
          const error = `not sent: ${held.why}: ${rings} is not read by the process remembered to read it`
          log.warn(
            { by: 'restore', restore, process: name, number, total },
            `restore held back: ${error}`,
          )
          hub.publish('restore.failed', { ...fields, number, error })
          continue
        }
        if (!failed) {
          hub.publish('restore.done', { ...fields, ms: result.ms })
          log.info({ by: 'restore', restore, process: name, total }, 'restore done')
          continue
        }
        const { status, code, error } = failed
        const number = numbers.indexOf(failed.number) + 1
        hub.publish('restore.failed', { ...fields, number, status, code, error })
      }
      return result
    },
  }
}
