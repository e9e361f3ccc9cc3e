// Turns what the registry and each process's actor report into events and metrics.
import type { Logger } from 'pino'
import { describe } from '../actors/describe.ts'
import { processLabel } from '../actors/label.ts'
import { onCommandDone } from '../actors/process-connection.ts'
import type { ProcessEntry, Registry } from '../actors/registry.ts'
import type { EventHub } from './event-hub.ts'
import { commandEvents } from './events.ts'
import type { Metrics } from './metrics.ts'

const identity = ({ kind, clientId }: Pick<ProcessEntry, 'kind' | 'clientId'>) =>
  clientId === undefined ? { kind } : { kind, 'client-id': clientId }

/** Publishes every process's comings, goings, conflicts and finished commands. */
export function observeProcesses(
  registry: Registry,
  hub: EventHub,
  metrics: Metrics,
  log: Logger,
): void {
  registry.on('registered', (entry, replaced) => {
    const who = identity(entry)
    // A vf or mirror tells its era in its first status, after this: `unknown`, as in the metrics.
    const { era } = describe(entry.connection)
    hub.publish(replaced ? 'process.replaced' : 'process.identified', { ...who, era })
    onCommandDone(entry.connection, ({ line, metric, reply, before, after, ms }) => {
      // A fault here drops this one connection (its process reconnects), and nothing else.
      try {
        metrics.observeCommand(entry.kind, metric, reply, ms / 1000)
        for (const { type, data } of commandEvents(line, reply, before, after)) {
          // Not { ...who, ...data }: a second spread is V8's slow path, about 1.3 µs each.
          hub.publish(type, Object.assign({}, who, data))
        }
      } catch (error) {
        log.error(
          { err: error, process: processLabel(entry) },
          'internal error: connection dropped',
        )
        entry.connection.send({ type: 'close', reason: 'internal error in the controller' })
      }
    })
  })
  registry.on('removed', (entry) => {
    metrics.observeDisconnect(entry.kind)
    const reason = describe(entry.connection).closeReason
    hub.publish('process.disconnected', { ...identity(entry), reason })
  })
  registry.on('conflict', (served, claimant) => {
    metrics.observeConflict(served.kind)
    const peers = { served: served.peer, claimant: claimant.peer }
    hub.publish('process.conflict', { ...identity(served), ...peers })
  })
}
