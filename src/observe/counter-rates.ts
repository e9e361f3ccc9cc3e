// Each counter of the primary's ports as a rate between two reads. Pure.
import type { PrimaryStatus } from '../protocol/bodies.ts'
import type { ReadPair } from './counter-history.ts'

/** Why a counter has no rate: no two reads a second apart yet, or it went down between them. */
export type Missing = 'no-window' | 'reset'

/** A counter now and its rate in packets a second (null, and why, when there is none). */
export type CounterRate = { value: number; pps: number | null; missing?: Missing }

/** Every counter of a read by name: `phy:0 rx`, `ring:0 tx_drop`, ... */
export type CounterRates = {
  /** Seconds between the two reads; null without a pair. */
  windowS: number | null
  /** Whether the status reports its phy ports' `tx_drop` as 18.11 does (the drops downstream). */
  downstreamTxDrop: boolean
  counters: ReadonlyMap<string, CounterRate>
}

const PHY_COUNTERS = ['rx', 'tx', 'tx_drop'] as const
const RING_COUNTERS = ['rx', 'rx_drop', 'tx', 'tx_drop'] as const

// A read is the newer of one pair and then the older of the next: its counters are named once.
const named = new WeakMap<PrimaryStatus, Map<string, number>>()

/** Each counter of a status by its name, in the status's order (not to be changed). */
export function countersOf(status: PrimaryStatus): ReadonlyMap<string, number> {
  let counters = named.get(status)
  if (counters) return counters
  counters = new Map<string, number>()
  named.set(status, counters)
  for (const port of status.phy_ports)
    for (const name of PHY_COUNTERS) counters.set(`phy:${port.id} ${name}`, port[name])
  for (const port of status.ring_ports)
    for (const name of RING_COUNTERS) counters.set(`ring:${port.id} ${name}`, port[name])
  return counters
}

/**
 * 18.11's primary reports as a phy port's `tx_drop` what was lost downstream of it (its rx less
 * what the ring it feeds took), not what the port failed to send: the recordings show it. Its
 * status is the one without `lcores` (added in 18.08.2, SPP's next release after 18.11).
 */
export const reportsDownstreamTxDrop = (status: PrimaryStatus) => !('lcores' in status)

/**
 * The rate of every counter of the newer read: Δcount / Δt over the pair, by the reads' times;
 * null with `no-window` when there is no older read a second before, `reset` when the counter
 * went down (a `clear` the history did not see, a primary restarted) or is not in the older read.
 */
export function counterRates(pair: ReadPair | undefined): CounterRates {
  if (!pair) return { windowS: null, downstreamTxDrop: false, counters: new Map() }
  const { newer, older } = pair
  const now = countersOf(newer.status)
  const before = older && countersOf(older.status)
  const windowS = older ? (newer.at - older.at) / 1000 : null
  const counters = new Map<string, CounterRate>()
  for (const [name, value] of now) {
    const was = before?.get(name)
    if (windowS === null) counters.set(name, { value, pps: null, missing: 'no-window' })
    else if (was === undefined || was > value)
      counters.set(name, { value, pps: null, missing: 'reset' })
    else counters.set(name, { value, pps: round((value - was) / windowS) })
  }
  return {
    windowS: windowS === null ? null : round(windowS, 1000),
    downstreamTxDrop: reportsDownstreamTxDrop(newer.status),
    counters,
  }
}

/** To a tenth (a rate), or to a thousandth (seconds). */
const round = (value: number, by = 10) => Math.round(value * by) / by
