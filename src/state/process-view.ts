// What the controller knows of each process, and how every command's effect changes it.
import type { PcapInfo, PrimaryStatus, ProcessKind } from '../protocol/bodies.ts'
import { isEffectOf, unhandled, type Effect, type EffectOf } from '../protocol/effects.ts'
import { fail, ok, type Result } from '../protocol/result.ts'
import { nextComponentView, type ComponentView } from './component-view.ts'
import { nextNfvView, type NfvView } from './nfv-view.ts'

/** The primary: its port counters as last read, and when (ms since the epoch). */
export type PrimaryView = { kind: 'primary'; status?: PrimaryStatus; readAt?: number }
/** A pcap: its capture status and lcores as last read. */
export type PcapView = { kind: 'pcap'; info?: PcapInfo }

/**
 * A process's state as the controller knows it: refreshed from every status reply and updated by
 * every successful change. A field is absent until something has told it.
 */
export type ProcessView = PrimaryView | NfvView | ComponentView | PcapView

export type { ComponentView, NfvView }

export const emptyView = (kind: ProcessKind): ProcessView => ({ kind })

/** The pcap's view after a successful command. */
export function nextPcapView(view: PcapView, effect: EffectOf<'pcap'>): PcapView {
  switch (effect.kind) {
    case 'pcap.read':
      return { kind: 'pcap', info: effect.info }
    case 'pcap.start':
    case 'pcap.stop':
    case 'exit':
      return view // the workers change state asynchronously: the next read tells
    default:
      return unhandled(effect)
  }
}

/** A primary's status with its ports' traffic counters at 0 (all else as it showed). */
export const zeroCounters = (status: PrimaryStatus): PrimaryStatus => ({
  ...status,
  phy_ports: status.phy_ports.map((p) => ({ ...p, rx: 0, tx: 0, tx_drop: 0 })),
  ring_ports: status.ring_ports.map((r) => ({ ...r, rx: 0, rx_drop: 0, tx: 0, tx_drop: 0 })),
})

/** The primary's view after a successful command. */
export function nextPrimaryView(
  view: PrimaryView,
  effect: EffectOf<'primary'>,
  now: number,
): PrimaryView {
  switch (effect.kind) {
    case 'primary.read':
      return { kind: 'primary', status: effect.status, readAt: now }
    case 'primary.clear':
      return view.status ? { ...view, status: zeroCounters(view.status) } : view
    case 'exit':
    case 'primary.changed': // the counters are what the view holds: the next read tells
    case 'port.add':
    case 'port.del':
    case 'patch.set':
    case 'patch.reset':
      return view
    default:
      return unhandled(effect)
  }
}

/** The view of a kind of process after one of its own effects, or undefined for another's. */
function next(view: ProcessView, effect: Effect, now: number): ProcessView | undefined {
  switch (view.kind) {
    case 'primary':
      return isEffectOf('primary', effect) ? nextPrimaryView(view, effect, now) : undefined
    case 'nfv':
      return isEffectOf('nfv', effect) ? nextNfvView(view, effect) : undefined
    case 'pcap':
      return isEffectOf('pcap', effect) ? nextPcapView(view, effect) : undefined
    default:
      return isEffectOf(view.kind, effect) ? nextComponentView(view, effect) : undefined
  }
}

/**
 * The view after a successful command. Never throws: an effect that does not belong to this kind
 * of process (a bug, not a process's doing) is a typed failure and the view stays as it was.
 */
export function nextView(view: ProcessView, effect: Effect, now: number): Result<ProcessView> {
  const after = next(view, effect, now)
  return after ? ok(after) : fail(`a ${view.kind} cannot ${effect.kind}`, 'INTERNAL')
}
