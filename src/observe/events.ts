// What a finished command tells the event stream, derived from the command's effect.
import { unhandled, type Effect } from '../protocol/effects.ts'
import type { ProcessId } from '../protocol/process-id.ts'
import type { Result } from '../protocol/result.ts'
import type { ProcessView } from '../state/process-view.ts'

export type EventDraft = { type: string; data: Record<string, unknown> }

/** The event of a change; a read tells nothing by itself (a status it reveals is below). */
function changeEvent(effect: Effect): EventDraft | undefined {
  switch (effect.kind) {
    case 'pcap.start':
      return { type: 'pcap.capture.started', data: {} }
    case 'pcap.stop':
      return { type: 'pcap.capture.stopped', data: {} }
    case 'primary.clear':
      return { type: 'primary.stats.cleared', data: {} }
    case 'port.add':
      return { type: 'port.added', data: { port: effect.port } }
    case 'port.del':
      return { type: 'port.deleted', data: { port: effect.port } }
    case 'patch.set':
      return { type: 'patch.set', data: { src: effect.src, dst: effect.dst } }
    case 'patch.reset':
      return { type: 'patches.reset', data: {} }
    case 'component.start': {
      const { name, core, type } = effect
      return { type: 'component.started', data: { name, core, type } }
    }
    case 'component.stop':
      return { type: 'component.stopped', data: { name: effect.name } }
    case 'port.attach':
    case 'port.detach': {
      const { component, port, dir } = effect
      const vlan = effect.kind === 'port.attach' && effect.vlan ? { vlan: effect.vlan } : {}
      const type = effect.kind === 'port.attach' ? 'port.attached' : 'port.detached'
      return { type, data: { component, port, dir, ...vlan } }
    }
    case 'classifier.add':
    case 'classifier.del': {
      const { type, vlan, mac, port } = effect
      const data = { type, ...(vlan === undefined ? {} : { vlan }), mac_address: mac, port }
      return {
        type: effect.kind === 'classifier.add' ? 'classifier.added' : 'classifier.removed',
        data,
      }
    }
    case 'primary.read':
    case 'nfv.read':
    case 'vf.read':
    case 'mirror.read':
    case 'pcap.read':
    case 'exit': // its connection closes: process.disconnected tells
    case 'primary.changed': // forwarder, launch, flow rules: nothing the stream shows yet
    case 'nfv.forward':
    case 'nfv.stop': // nfv.status tells, however the change was learned
      return undefined
    default:
      return unhandled(effect)
  }
}

/**
 * The events of one finished command: a failure whatever the command was; otherwise what its
 * effect changed, and an nfv's Running/Idle change however it was learned.
 */
export function commandEvents(
  line: string,
  reply: Result<Effect>,
  before: ProcessView,
  after: ProcessView,
): EventDraft[] {
  if (!reply.ok) {
    return [
      {
        type: 'command.failed',
        data: { command: line, error: reply.code, message: reply.message },
      },
    ]
  }
  const events: EventDraft[] = []
  if (
    after.kind === 'nfv' &&
    before.kind === 'nfv' &&
    after.status !== undefined &&
    after.status !== before.status
  ) {
    events.push({ type: 'nfv.status', data: { status: after.status } })
  }
  const change = changeEvent(reply.value)
  if (change) events.push(change)
  return events
}

/** A hop's verdict as `path.verdict` tells it (the hop's shape is src/topology/path-document.ts). */
export type HopVerdictChange = {
  hop: string
  from: string
  to: string | null
  by: { label: string }
  /** The verdict now (null: the hop is gone), and the one before (null: a hop first judged). */
  verdict: { verdict: string; problem: boolean; reason: string } | null
  was: string | null
}

/**
 * `path.verdict`: a hop's verdict changed. Its data carries the `kind` and `client-id` of the
 * process that moves the packets, as every process's event does, then the hop.
 */
export function verdictEvent(process: ProcessId, change: HopVerdictChange): EventDraft {
  const { kind, clientId } = process
  const who = clientId === undefined ? { kind } : { kind, 'client-id': clientId }
  return { type: 'path.verdict', data: { ...who, ...change } }
}
