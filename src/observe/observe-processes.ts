// Turns what the registry and each process's commands report into events and metrics.
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import type { ProcessId } from '../protocol/process-id.ts'
import type { EventHub } from './event-hub.ts'
import { commandEvents } from './events.ts'
import type { Metrics } from './metrics.ts'

/** A process as events name it: `{"kind": "vf", "client-id": 2}`. */
export const eventIdentity = ({ kind, clientId }: ProcessId) =>
  clientId === undefined ? { kind } : { kind, 'client-id': clientId }

/** Publishes every process's comings, goings, conflicts and settled commands. */
export function observeProcesses(registry: Registry, hub: EventHub, metrics: Metrics): void {
  registry.on('registered', (process, replaced) => {
    // A vf or mirror tells its era in its first status, after this: `unknown`, as in the metrics.
    const { era } = process.describe()
    const type = replaced ? 'process.replaced' : 'process.identified'
    hub.publish(type, { ...eventIdentity(process.id), era })
  })
  registry.changes((settled) => {
    // A fault here drops this one connection (the registry sees to it), and nothing else.
    const { process, metric, outcome, before, after, ms, line } = settled
    metrics.observeCommand(process.kind, metric, outcome, ms / 1000)
    const who = eventIdentity(process)
    for (const { type, data } of commandEvents(line, outcome, before, after))
      hub.publish(type, { ...who, ...data })
  })
  registry.on('removed', (process: ProcessHandle) => {
    metrics.observeDisconnect(process.id.kind)
    const reason = process.describe().closeReason
    hub.publish('process.disconnected', { ...eventIdentity(process.id), reason })
  })
  registry.on('conflict', (served, claimant) => {
    metrics.observeConflict(served.id.kind)
    const peers = { served: served.describe().peer, claimant: claimant.describe().peer }
    hub.publish('process.conflict', { ...eventIdentity(served.id), ...peers })
  })
}
