// @ts-check
// The paths document (GET /v1/topology/paths, and each `rates` event) as the page words it: a
// rate, what an edge of the graph carries and why it is red, the problems. Pure.
import { ratePps } from './rates.js'

/**
 * @typedef {{ pps: number | null, source: 'counted' | 'inferred' | 'not counted', counter: string | null,
 *   missing?: 'no-window' | 'reset', shared_by?: number, note?: string }} Rate
 * @typedef {{ verdict: string, problem: boolean, reason: string, port?: string,
 *   reader?: 'none' | 'stopped' | 'slower', readers?: string[], stopped?: string[] }} Verdict
 * @typedef {{ process: string, kind: string, name: string, label: string }} HopMover
 * @typedef {{ id: string, from: string, to: string | null, by: HopMover, state: 'running' | 'stopped',
 *   rates: { offered: Rate, delivered: Rate, dropped: Rate }, verdict: Verdict, end?: string,
 *   next: string[] }} Hop
 * @typedef {{ value: number, pps: number | null, counted: boolean, missing?: string, note?: string }} PortCounter
 * @typedef {Record<string, Record<string, PortCounter>>} Ports each port's counters (`phy:0` → `rx`)
 * @typedef {{ window_s: number | null, not_read: string[], ports: Ports, hops: Hop[],
 *   problems: string[] }} PathsDocument
 * @typedef {'through' | 'in' | 'out'} Side a patch's edge carries its hop through; a component's
 *   hop comes in by its rx edge and goes out by its tx edge
 * @typedef {{ hop: Hop, side: Side }} Crossing
 * @typedef {'dropping' | 'problem' | 'idle' | 'flowing' | 'quiet'} EdgeState how an edge is drawn
 */

/**
 * A rate as the graph and the tables show it: never 0 for what SPP does not count, and what is
 * taken from the hop before marked `≈`; `…` until two reads a second apart (or after a clear).
 * @param {Rate} rate
 */
export function rateText(rate) {
  if (rate.source === 'not counted') return 'not counted'
  if (rate.pps === null) return '…'
  return `${rate.source === 'inferred' ? '≈' : ''}${ratePps(rate.pps)}`
}

/**
 * Several hops' rates through one edge (a merge's hops into one tx port): a counter they share is
 * taken once, separate numbers are added; one not counted makes the sum not counted.
 * @param {Rate[]} rates
 * @returns {Rate | undefined}
 */
export function together(rates) {
  const [first, ...rest] = rates
  if (!first || rest.length === 0) return first
  if (rates.some((r) => r.shared_by !== undefined) || rates.every((r) => same(r, first)))
    return rates.find((r) => r.shared_by !== undefined) ?? first
  if (rates.some((r) => r.source === 'not counted'))
    return { ...first, source: 'not counted', pps: null }
  const waiting = rates.find((r) => r.pps === null)
  if (waiting) return waiting
  const source = rates.some((r) => r.source === 'inferred') ? 'inferred' : 'counted'
  return { ...first, source, pps: rates.reduce((sum, r) => sum + (r.pps ?? 0), 0) }
}
const same = (/** @type {Rate} */ a, /** @type {Rate} */ b) =>
  a.counter === b.counter && a.source === b.source && a.pps === b.pps

/**
 * Why a hop is something to put right, in a few words an edge can carry (the problems list has the
 * controller's whole reason): where packets are lost and who reads there.
 * @param {Verdict} verdict
 */
export function shortReason(verdict) {
  const { port = '', readers = [] } = verdict
  switch (verdict.verdict) {
    case 'dropping':
      // the edge goes into `port` (its dropped rate is on the line before): who reads there
      if (verdict.reader === 'none') return `dropping: nothing reads ${port}`
      if (verdict.reader === 'stopped') return `dropping: ${readers.join(', ')} stopped`
      if (!port.startsWith('ring:')) return `dropping: ${port} sends slower`
      return `dropping: ${readers.join(', ')} ${readers.length === 1 ? 'reads' : 'read'} slower`
    case 'idle':
      return `idle: ${(verdict.stopped ?? []).join(', ')} stopped`
    case 'loop':
      return `loop: back to ${port}`
    case 'dead_end':
      return `dead end at ${port || 'a deleted port'}`
    default:
      return verdict.reason
  }
}

const WORST = /** @type {const} */ (['dropping', 'problem', 'idle', 'flowing', 'quiet'])

/** @param {Verdict} verdict @param {Side} side @returns {EdgeState} */
function stateOf(verdict, side) {
  // What is lost, or loops, is lost where the hop sends: its rx edge only shows it idle.
  if (side === 'in') return verdict.verdict === 'idle' ? 'idle' : flowingOrQuiet(verdict)
  if (verdict.verdict === 'dropping') return 'dropping'
  if (verdict.verdict === 'idle') return 'idle'
  if (verdict.problem) return 'problem'
  return flowingOrQuiet(verdict)
}
const flowingOrQuiet = (/** @type {Verdict} */ v) => (v.verdict === 'flowing' ? 'flowing' : 'quiet')

/**
 * What one edge of the graph carries: its rate (what enters a component by its rx edge, what
 * leaves by its tx edge or through a patch), what is dropped where it sends when that grows, and
 * why, in a few words, when it is a problem. `lines` are the label's lines after the edge's own.
 * @param {Crossing[]} crossings the hops through this edge
 * @returns {{ rate: string, lines: string[], state: EdgeState }}
 */
export function edgeRate(crossings) {
  if (crossings.length === 0) return { rate: '', lines: [], state: 'quiet' }
  const side = crossings[0]?.side ?? 'through'
  const hops = crossings.map((c) => c.hop)
  const states = crossings.map((c) => stateOf(c.hop.verdict, c.side))
  const state = WORST.find((s) => states.includes(s)) ?? 'quiet'
  // A component's hops through one rx edge all take what arrives there: one offered rate.
  const carried =
    side === 'in' ? hops[0]?.rates.offered : together(hops.map((hop) => hop.rates.delivered))
  const rate = carried ? rateText(carried) : ''
  const lines = [rate]
  if (side !== 'in') {
    const dropped = together(hops.map((hop) => hop.rates.dropped))
    if (dropped?.source !== 'not counted' && (dropped?.pps ?? 0) > 0)
      lines.push(`${rateText(/** @type {Rate} */ (dropped))} dropped`)
  }
  const problems = hops.filter((hop, i) => states[i] !== 'flowing' && states[i] !== 'quiet')
  for (const hop of problems) {
    const reason = shortReason(hop.verdict)
    if (!lines.includes(reason)) lines.push(reason)
  }
  return { rate, lines: lines.filter(Boolean), state }
}

/**
 * The problems `spp-ctl topology check` reports: each hop whose verdict is one, with the
 * controller's reason and what it loses.
 * @param {PathsDocument} paths
 * @returns {{ hop: Hop, text: string }[]}
 */
export function problemsOf(paths) {
  const byId = new Map(paths.hops.map((hop) => [hop.id, hop]))
  return paths.problems.flatMap((id) => {
    const hop = byId.get(id)
    if (!hop) return []
    const { dropped } = hop.rates
    const lost =
      hop.verdict.verdict === 'dropping' && dropped.pps !== null
        ? ` (${rateText(dropped)} dropped at ${hop.verdict.port})`
        : ''
    return [{ hop, text: `${hop.verdict.reason}${lost}` }]
  })
}

/** `nfv:1 phy:0>ring:0` as a reader sees it: `nfv:1 phy:0 → ring:0`. @param {Hop} hop */
export const hopName = (hop) => `${hop.by.label} ${hop.from} → ${hop.to ?? 'a file'}`
