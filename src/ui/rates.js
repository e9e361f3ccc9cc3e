// @ts-check
// Port rates from successive reads of the primary's counters: packets per second per port, whether
// its drops grow, and the last minutes of rates a sparkline draws. Pure: times and counters in.

/** How far back the charts reach. */
export const WINDOW_MS = 5 * 60 * 1000
/** Reads closer together than this (an event's read just after the period's) are not an interval. */
export const MIN_INTERVAL_MS = 1000
const COUNTERS = /** @type {const} */ (['rx', 'tx', 'rx_drop', 'tx_drop'])

/**
 * @typedef {{ id: number, rx?: number, tx?: number, rx_drop?: number, tx_drop?: number }} PortCounters
 * @typedef {{ phy_ports?: PortCounters[], ring_ports?: PortCounters[] }} PrimaryCounters
 * @typedef {{ t: number, rx: number, tx: number, rx_drop: number, tx_drop: number }} Rate per
 *   second, over the interval that ended at `t` (ms); a counter the port lacks counts as 0
 * @typedef {{ base: { t: number, counters: PortCounters }, rates: Rate[] }} PortHistory
 * @typedef {Map<string, PortHistory>} History by port id (`phy:0`, `ring:1`)
 */

/** @param {PrimaryCounters} status @returns {[string, PortCounters][]} */
export const portsOf = (status) => [
  ...(status.phy_ports ?? []).map(
    (p) => /** @type {[string, PortCounters]} */ ([`phy:${p.id}`, p]),
  ),
  ...(status.ring_ports ?? []).map(
    (p) => /** @type {[string, PortCounters]} */ ([`ring:${p.id}`, p]),
  ),
]

/**
 * Adds one read of the primary's status, made at `t` ms, to the history (changed in place). A
 * counter that went down (a `clear`, a restarted primary) ends the interval without a rate; a port
 * the read no longer lists is forgotten; rates older than the window are dropped.
 * @param {History} history @param {number} t @param {PrimaryCounters} status
 */
export function record(history, t, status) {
  const seen = new Set()
  for (const [port, counters] of portsOf(status)) {
    seen.add(port)
    const known = history.get(port)
    if (!known) {
      history.set(port, { base: { t, counters }, rates: [] })
      continue
    }
    const seconds = (t - known.base.t) / 1000
    if (seconds * 1000 < MIN_INTERVAL_MS) continue
    const delta = COUNTERS.map((c) => (counters[c] ?? 0) - (known.base.counters[c] ?? 0))
    if (delta.every((d) => d >= 0)) {
      const [rx, tx, rx_drop, tx_drop] = delta.map((d) => d / seconds)
      known.rates.push({
        t,
        rx: rx ?? 0,
        tx: tx ?? 0,
        rx_drop: rx_drop ?? 0,
        tx_drop: tx_drop ?? 0,
      })
    }
    known.base = { t, counters }
    while ((known.rates[0]?.t ?? t) < t - WINDOW_MS) known.rates.shift()
  }
  for (const port of history.keys()) if (!seen.has(port)) history.delete(port)
}

/** The rates of a port's last interval, if it has one. @param {History} history @param {string} port */
export const latest = (history, port) => history.get(port)?.rates.at(-1)

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 })
/** `0 pps`, `32 pps`, `0.5 pps`, `12.3K pps`, `14.9M pps`. @param {number} perSecond */
export const ratePps = (perSecond) => `${compact.format(perSecond)} pps`

/**
 * The polyline points of rx and tx over the window that ends at `now`, in a width x height box
 * (y down, the highest rate of either at the top); `max` is that rate.
 * @param {Rate[]} rates @param {number} now @param {{ width: number, height: number }} box
 */
export function sparkline(rates, now, { width, height }) {
  const max = Math.max(0, ...rates.flatMap((r) => [r.rx, r.tx]))
  /** @param {'rx' | 'tx'} key */
  const points = (key) =>
    rates
      .map((r) => {
        const x = width - ((now - r.t) / WINDOW_MS) * width
        const y = max === 0 ? height : height - (r[key] / max) * height
        return `${round(x)},${round(y)}`
      })
      .join(' ')
  return { rx: points('rx'), tx: points('tx'), max }
}
const round = (/** @type {number} */ n) => Math.round(n * 10) / 10
