// @ts-check
// Port rates over time: the points a sparkline draws, from the rates the controller pushes (or,
// from a controller that pushes none, worked out from successive reads of the primary's counters),
// and whether the rates shown are current. Pure: times and counters in.

/** How far back the charts reach. */
export const WINDOW_MS = 5 * 60 * 1000
/** Reads closer together than this (an event's read just after the period's) are not an interval. */
export const MIN_INTERVAL_MS = 1000
const COUNTERS = /** @type {const} */ (['rx', 'tx', 'rx_drop', 'tx_drop'])

/**
 * @typedef {{ id: number, rx?: number, tx?: number, rx_drop?: number, tx_drop?: number }} PortCounters
 * @typedef {{ phy_ports?: PortCounters[], ring_ports?: PortCounters[] }} PrimaryCounters
 * @typedef {{ t: number, rx: number | null, tx: number | null, rx_drop: number | null,
 *   tx_drop: number | null }} Rate per second, over the interval that ended at `t` (ms); null
 *   where it is not known (not counted, or no interval yet)
 * @typedef {{ base?: { t: number, counters: PortCounters }, rates: Rate[] }} PortHistory `base`:
 *   the last read, for the next interval (only when the page works the rates out itself)
 * @typedef {Map<string, PortHistory>} History by port id (`phy:0`, `ring:1`)
 * @typedef {import('./hops.js').Ports} Ports
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
 * Adds one push of the controller's rates, received at `t` ms, to the history (changed in place):
 * one point per port. A push within MIN_INTERVAL_MS of the last point (the same read pushed again
 * to a stream that reconnected) takes its place; a port no longer listed is forgotten.
 * @param {History} history @param {number} t @param {Ports} ports
 */
export function recordPushed(history, t, ports) {
  for (const port of history.keys()) if (!(port in ports)) history.delete(port)
  for (const [port, counters] of Object.entries(ports)) {
    const known = history.get(port) ?? { rates: [] }
    history.set(port, known)
    const [rx, tx, rx_drop, tx_drop] = COUNTERS.map((c) => counters[c]?.pps ?? null)
    const point = {
      t,
      rx: rx ?? null,
      tx: tx ?? null,
      rx_drop: rx_drop ?? null,
      tx_drop: tx_drop ?? null,
    }
    const last = known.rates.at(-1)
    if (last && t - last.t < MIN_INTERVAL_MS) known.rates[known.rates.length - 1] = point
    else known.rates.push(point)
    trim(known.rates, t)
  }
}

/**
 * Adds one read of the primary's status, made at `t` ms, to the history (changed in place), for a
 * controller that pushes no rates. A counter that went down (a `clear`, a restarted primary) ends
 * the interval without a rate; a port the read no longer lists is forgotten.
 * @param {History} history @param {number} t @param {PrimaryCounters} status
 */
export function record(history, t, status) {
  const seen = new Set()
  for (const [port, counters] of portsOf(status)) {
    seen.add(port)
    const known = history.get(port)
    if (!known?.base) {
      history.set(port, { base: { t, counters }, rates: [] })
      continue
    }
    const seconds = (t - known.base.t) / 1000
    if (seconds * 1000 < MIN_INTERVAL_MS) continue
    const base = known.base.counters
    const delta = COUNTERS.map((c) => (counters[c] ?? 0) - (base[c] ?? 0))
    if (delta.every((d) => d >= 0)) {
      const [rx = 0, tx = 0, rx_drop = 0, tx_drop = 0] = delta.map((d) => d / seconds)
      known.rates.push({ t, rx, tx, rx_drop, tx_drop })
    }
    known.base = { t, counters }
    trim(known.rates, t)
  }
  for (const port of history.keys()) if (!seen.has(port)) history.delete(port)
}

/** Drops the rates older than the window. @param {Rate[]} rates @param {number} now */
function trim(rates, now) {
  while ((rates[0]?.t ?? now) < now - WINDOW_MS) rates.shift()
}

/** The rates of a port's last interval, if it has one. @param {History} history @param {string} port */
export const latest = (history, port) => history.get(port)?.rates.at(-1)

/**
 * The ports' counters as the controller pushes them, worked out from reads of the status: the
 * values of the last read, the rates of the last interval (`no-window` until there is one).
 * @param {PrimaryCounters} status @param {History} history @returns {Ports}
 */
export function polledPorts(status, history) {
  /** @type {Ports} */
  const ports = {}
  for (const [port, counters] of portsOf(status)) {
    const rate = latest(history, port)
    ports[port] = {}
    for (const c of COUNTERS) {
      const value = counters[c]
      if (value === undefined) continue
      const pps = rate?.[c] ?? null
      ports[port][c] = { value, pps, counted: true, ...(pps === null && { missing: 'no-window' }) }
    }
  }
  return ports
}

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 })
/** `0 pps`, `32 pps`, `0.5 pps`, `12.3K pps`, `14.9M pps`. @param {number} perSecond */
export const ratePps = (perSecond) => `${compact.format(perSecond)} pps`

/**
 * Whether the rates shown are current: `live` while pushes come about as often as the controller
 * reads (its `window_s`, at least a second), `stale` once none came for three of those periods (and
 * 5 s at least), `waiting` before the first since they were asked for.
 * @param {number} now @param {number | undefined} lastAt when the last push came, since asked
 * @param {number} askedAt when they were asked for @param {number | null} windowS
 * @returns {'live' | 'waiting' | 'stale'}
 */
export function freshness(now, lastAt, askedAt, windowS) {
  const patience = Math.max(5000, 3000 * Math.max(1, windowS ?? 1))
  if (lastAt === undefined) return now - askedAt > patience ? 'stale' : 'waiting'
  return now - lastAt > patience ? 'stale' : 'live'
}

/**
 * The polyline points of rx and tx over the window that ends at `now`, in a width x height box
 * (y down, the highest rate of either at the top); `max` is that rate. A rate not known is no point.
 * @param {Rate[]} rates @param {number} now @param {{ width: number, height: number }} box
 */
export function sparkline(rates, now, { width, height }) {
  const known = (/** @type {number | null} */ n) => (n === null ? [] : [n])
  const max = Math.max(0, ...rates.flatMap((r) => [...known(r.rx), ...known(r.tx)]))
  /** @param {'rx' | 'tx'} key */
  const points = (key) =>
    rates
      .flatMap((r) => {
        const rate = r[key]
        if (rate === null) return []
        const x = width - ((now - r.t) / WINDOW_MS) * width
        const y = max === 0 ? height : height - (rate / max) * height
        return [`${round(x)},${round(y)}`]
      })
      .join(' ')
  return { rx: points('rx'), tx: points('tx'), max }
}
const round = (/** @type {number} */ n) => Math.round(n * 10) / 10
