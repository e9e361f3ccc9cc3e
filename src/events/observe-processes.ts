import type { ProcessEntry, Registry } from '../actors/registry.ts'
import type { Metrics } from '../metrics.ts'
import { commandEvents } from './command-events.ts'
import type { EventHub } from './event-hub.ts'

const identity = ({ kind, clientId }: ProcessEntry) =>
  clientId === undefined ? { kind } : { kind, 'client-id': clientId }

/** Turns what the registry and each process's actor report into events and metrics. */
export function observeProcesses(registry: Registry, hub: EventHub, metrics: Metrics): void {
  registry.on('registered', (entry, replaced) => {
    const who = identity(entry)
    hub.publish(replaced ? 'process.replaced' : 'process.identified', who)
    entry.connection.on('commandDone', ({ line, reply, before, after, ms }) => {
      metrics.observeCommand(entry.kind, line, reply, ms / 1000)
      for (const { type, data } of commandEvents(entry.kind, line, reply, before, after))
        hub.publish(type, { ...who, ...data })
    })
  })
  registry.on('removed', (entry) => {
    metrics.observeDisconnect(entry.kind)
    hub.publish('process.disconnected', {
      ...identity(entry),
      reason: entry.connection.getSnapshot().context.closeReason,
    })
  })
}
