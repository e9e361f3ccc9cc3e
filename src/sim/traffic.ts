// The packets of one simulated machine. They arrive on phy ports (`--traffic`), move through what
// each process runs (src/sim/mover.ts), wait in rings of RING_SIZE packets, and are counted where
// SPP counts them: in the primary's shared statistics, which spp_nfv (and a 2020 primary's
// forwarder) keep and spp_vf and spp_mirror do not.
//
// Nothing runs per packet and no timer runs: whenever someone looks (a status read, a `clear`) or
// a process changes what it runs, the model is first advanced to now through exactly what was
// configured over that time. The flow is a fluid one: its rates stay the same while every ring
// stays empty, partly filled or full; the model goes from one such phase to the next (a ring
// filling up, or running dry) until it reaches now.
import type { Mover, VlanEdit } from './mover.ts'
import { UNTAGGED } from './vf-tokens.ts'
import { parseCNumber } from './wire.ts'

/** The packets a ring holds: a ring nobody reads takes 127, then drops (as recorded from SPP). */
export const RING_SIZE = 127
/** How fast a process moves packets unless `--reader-pps` says: far above any `--traffic`. */
export const READER_PPS = 1_000_000_000
/** The most packets a second `--traffic` makes arrive on one port. */
export const MAX_TRAFFIC_PPS = 100_000_000
/** The destination MAC the traffic carries unless `--traffic-macs` says. */
export const TRAFFIC_MACS = ['52:54:00:00:00:01']

export type TrafficOptions = {
  /** Packets a second arriving on phy ports, by port: `{ 'phy:0': 20000 }`. */
  sources?: Record<string, number>
  /** The most packets a second a process takes from its ports, by process: `{ 'vf:2': 5000 }`. */
  readerPps?: Record<string, number>
  /** The destination MACs the traffic carries, in equal shares, as the classifier keeps them. */
  macs?: string[]
  /** Queues of each phy port: a port's packets are shared evenly among its queues. */
  phyQueues?: number[]
  /** Milliseconds from any origin; a test's clock moves only when the test moves it. */
  clock?: () => number
}

/**
 * One entry of the primary's shared statistics: `phy:N` (a phy port's) or `client:N`. SPP keeps
 * one `client` entry per number, which every port an nfv adds with that number counts into:
 * `ring:1`, `vhost:1`, `pcap:1` and `nullpmd:1` all count in `client:1`, which the primary shows
 * as ring 1's counters.
 */
export type Stats = { rx: number; tx: number; tx_drop: number }

/** A process's say in what moves packets on its machine. */
export type Lane = {
  /** What the process runs from now on (the time before is advanced under what it ran). */
  set(movers: Mover[]): void
  /** The process is gone: it moves nothing any more. */
  leave(): void
}

/** Packets a second (or packets) by traffic class, `MAC@VID` (untagged: VID 4095). */
type Mix = Map<string, number>

/** A mover as the model runs it: its ports as endpoints, and whether its shape lets it run. */
type Runner = {
  lane: string
  counted: boolean
  type: Mover['type']
  /** The endpoints it takes packets from (none when its ports do not let it run). */
  reads: string[]
  readEdits: (VlanEdit | undefined)[]
  tx: string[]
  txEdits: Map<string, VlanEdit>
  /** A classifier's table: class (or `default@VID`) to endpoint. */
  table: Map<string, string>
}
type Channel = { runner: Runner; at: number; from: string }
type Read = Channel & { rate: number; mix: Mix }
type Send = { runner: Runner; to: string; mix: Mix; kept: number }
/** The rates of one phase, and how fast each ring fills (or empties). */
type Flow = { reads: Read[]; sends: Send[]; into: Map<string, Mix>; fillRate: Map<string, number> }

/** `phy:0` and `phy:0 nq 1` are queues 0 and 1 of phy:0 (`phy:0/1`); `ring:0x1` is `ring:1`. */
export function endpointOf(port: string, queue = 0): string | undefined {
  const match = /^([a-z]+):(\S+?)(?:\s*nq\s*(\S+))?$/.exec(port.trim())
  const index = parseCNumber(match?.[2])
  if (!match || !Number.isInteger(index)) return undefined
  if (match[1] !== 'phy') return match[3] === undefined ? `${match[1]}:${index}` : undefined
  const q = match[3] === undefined ? queue : parseCNumber(match[3])
  return Number.isInteger(q) ? `phy:${index}/${q}` : undefined
}

/** Where the primary counts an endpoint: its phy port's entry, or the client entry of its number. */
const statsKey = (endpoint: string) =>
  endpoint.startsWith('phy:')
    ? endpoint.slice(0, endpoint.indexOf('/'))
    : `client:${endpoint.slice(endpoint.indexOf(':') + 1)}`
const isRing = (endpoint: string) => endpoint.startsWith('ring:')

const none = (): Mix => new Map()
const sum = (mix: Mix) => {
  let total = 0
  for (const value of mix.values()) total += value
  return total
}
const addInto = (into: Mix, mix: Mix, scale = 1) => {
  for (const [c, v] of mix) into.set(c, (into.get(c) ?? 0) + v * scale)
}
const scaled = (mix: Mix, by: number): Mix => new Map([...mix].map(([c, v]) => [c, v * by]))
const shares = (mix: Mix): Mix => {
  const total = sum(mix)
  return total > 0 ? scaled(mix, 1 / total) : none()
}
const macOf = (c: string) => c.slice(0, c.lastIndexOf('@'))
const vidOf = (c: string) => c.slice(c.lastIndexOf('@') + 1)

/** A vlan edit on every packet of a mix. */
function edit(mix: Mix, vlan: VlanEdit | undefined): Mix {
  if (!vlan || vlan.operation === 'none') return mix
  const vid = vlan.operation === 'add' ? vlan.id : UNTAGGED
  const out: Mix = new Map()
  for (const [c, v] of mix) addInto(out, new Map([[`${macOf(c)}@${vid}`, v]]))
  return out
}

/** How SPP runs a mover: what it reads, given its ports (spp_vf's and spp_mirror's conditions). */
function runnerOf(lane: string, mover: Mover): Runner {
  const known = (ports: string[]) =>
    ports.map((port) => endpointOf(port)).filter((port) => port !== undefined)
  const rx = known(mover.rx)
  const tx = known(mover.tx)
  const runs =
    rx.length === mover.rx.length &&
    tx.length === mover.tx.length &&
    (mover.type === 'forward'
      ? rx.length === 1 && tx.length === 1
      : mover.type === 'merge'
        ? rx.length >= 1 && tx.length === 1
        : mover.type === 'mirror'
          ? rx.length === 1 && tx.length === 2
          : rx.length >= 1) // a classifier reads its first rx port, whatever its tx ports
  const reads = !runs ? [] : mover.type === 'classifier' ? rx.slice(0, 1) : rx
  const txEdits = new Map<string, VlanEdit>()
  if (runs)
    mover.tx.forEach((port, i) => {
      const vlan = mover.vlans?.[`${port} tx`]
      if (vlan) txEdits.set(tx[i]!, vlan)
    })
  const table = new Map<string, string>()
  for (const entry of mover.table ?? []) {
    const to = endpointOf(entry.port)
    if (to) table.set(`${entry.mac}@${entry.vid}`, to)
  }
  return {
    lane,
    counted: mover.counted,
    type: mover.type,
    reads,
    readEdits: reads.map((_, i) => mover.vlans?.[`${mover.rx[i]} rx`]),
    tx: runs ? tx : [],
    txEdits,
    table,
  }
}

/** Where a runner sends what one of its reads took. */
function outputs(read: Read): [string, Mix][] {
  const { runner } = read
  const got = edit(read.mix, runner.readEdits[read.at])
  const out = (to: string, mix: Mix): [string, Mix] => [to, edit(mix, runner.txEdits.get(to))]
  if (runner.type === 'forward' || runner.type === 'merge') return [out(runner.tx[0]!, got)]
  if (runner.type === 'mirror') return runner.tx.map((to) => out(to, got))
  // A classifier: each packet to its entry's port, or its vid's default entry's; else dropped.
  const by = new Map<string, Mix>()
  for (const [c, v] of got) {
    const to = runner.table.get(c) ?? runner.table.get(`default@${vidOf(c)}`)
    if (to === undefined) continue
    if (!by.has(to)) by.set(to, new Map())
    by.get(to)!.set(c, v)
  }
  return [...by].map(([to, mix]) => out(to, mix))
}

const ROUNDS = 100
const PHASES = 1000
const NEAR = 1e-6

/** The packets of one machine: their sources, their movers, its rings and the primary's counters. */
export class Traffic {
  readonly #clock: () => number
  #at: number
  /** Packets a second arriving on each phy queue. */
  readonly #sources = new Map<string, Mix>()
  readonly #caps: Record<string, number>
  readonly #lanes = new Map<Lane, Runner[]>()
  /** Packets in each ring, and what they are (shares by class). */
  readonly #level = new Map<string, number>()
  readonly #held = new Map<string, Mix>()
  readonly #stats = new Map<string, Stats>()
  /** The current phase's rates, until a ring fills or empties or a process changes. */
  #flow: Flow | undefined

  constructor(options: TrafficOptions = {}) {
    this.#clock = options.clock ?? (() => performance.now())
    this.#at = this.#clock()
    this.#caps = { ...options.readerPps }
    const macs = options.macs?.length ? options.macs : TRAFFIC_MACS
    for (const [port, pps] of Object.entries(options.sources ?? {})) {
      const n = Number(port.slice(4))
      const queues = options.phyQueues?.[n] ?? 1
      const mix: Mix = new Map()
      for (const mac of macs)
        addInto(mix, new Map([[`${mac}@${UNTAGGED}`, pps / queues / macs.length]]))
      for (let q = 0; q < queues; q++) this.#sources.set(`phy:${n}/${q}`, mix)
    }
  }

  /** A process (`nfv:1`, `vf:2`, `primary`: its name picks its `--reader-pps`) joins the machine. */
  join(name: string): Lane {
    let last = '[]'
    const lane: Lane = {
      set: (movers) => {
        const key = JSON.stringify(movers)
        if (key === last || !this.#lanes.has(lane)) return
        this.#advance() // what passed until now passed under what it ran until now
        last = key
        this.#lanes.set(
          lane,
          movers.map((mover) => runnerOf(name, mover)),
        )
        this.#flow = undefined
      },
      leave: () => {
        this.#advance()
        this.#lanes.delete(lane)
        this.#flow = undefined
      },
    }
    this.#lanes.set(lane, [])
    return lane
  }

  /** The primary's shared statistics now, in whole packets (an entry never counted is absent). */
  stats(): Map<string, Stats> {
    this.#advance()
    const whole = (n: number) => Math.floor(n + NEAR)
    return new Map(
      [...this.#stats].map(([key, s]) => [
        key,
        { rx: whole(s.rx), tx: whole(s.tx), tx_drop: whole(s.tx_drop) },
      ]),
    )
  }

  /** Zeroes the statistics (the primary's `clear`, or a primary that starts); rings keep their packets. */
  clear() {
    this.#advance()
    this.#stats.clear()
  }

  #advance() {
    const now = this.#clock()
    if (!(now > this.#at)) return // no time has passed (a test's clock set back moves nothing)
    let left = (now - this.#at) / 1000
    this.#at = now
    for (let phase = 0; left > 0; phase++) {
      const flow = (this.#flow ??= this.#solve())
      let seconds = left
      if (phase < PHASES)
        for (const [ring, rate] of flow.fillRate) {
          const level = this.#level.get(ring) ?? 0
          // Only a ring that can still move towards an end limits the phase.
          if (rate > 0 && level < RING_SIZE) seconds = Math.min(seconds, (RING_SIZE - level) / rate)
          if (rate < 0 && level > 0) seconds = Math.min(seconds, level / -rate)
        }
      this.#apply(flow, seconds)
      left -= seconds
    }
  }

  /** Counts one phase of `seconds`, and moves the rings' levels; a ring at an end starts a new phase. */
  #apply(flow: Flow, seconds: number) {
    const count = (endpoint: string) => {
      const key = statsKey(endpoint)
      if (!this.#stats.has(key)) this.#stats.set(key, { rx: 0, tx: 0, tx_drop: 0 })
      return this.#stats.get(key)!
    }
    for (const read of flow.reads)
      if (read.runner.counted && read.rate > 0) count(read.from).rx += read.rate * seconds
    for (const send of flow.sends) {
      if (!send.runner.counted) continue
      const packets = sum(send.mix) * seconds
      if (packets <= 0) continue
      const stats = count(send.to)
      stats.tx += packets * send.kept
      stats.tx_drop += packets * (1 - send.kept)
    }
    const mode = (level: number) => (level <= 0 ? 0 : level >= RING_SIZE ? 2 : 1)
    for (const [ring, rate] of flow.fillRate) {
      const before = this.#level.get(ring) ?? 0
      let level = Math.min(RING_SIZE, Math.max(0, before + rate * seconds))
      if (level < NEAR) level = 0
      if (RING_SIZE - level < NEAR) level = RING_SIZE
      this.#level.set(ring, level)
      if (mode(level) !== mode(before)) this.#flow = undefined
    }
    for (const [ring, mix] of flow.into) if (sum(mix) > 0) this.#held.set(ring, shares(mix))
  }

  /**
   * The rates of the current phase. A ring with packets offers its readers all they can take; an
   * empty ring, what comes in; a full one takes only what its readers take out, and what else is
   * sent to it is dropped. What comes into empty rings depends on what is read upstream, so the
   * rates are worked out again until they settle (a chain settles in as many rounds as it has hops;
   * a loop of empty rings never settles, and its rings then fill).
   */
  #solve(): Flow {
    const runners = [...this.#lanes.values()].flat()
    const channels: Channel[] = runners.flatMap((runner) =>
      runner.reads.map((from, at) => ({ runner, at, from })),
    )
    let inflow = new Map<string, Mix>()
    let flow: Flow = { reads: [], sends: [], into: new Map(), fillRate: new Map() }
    for (let round = 0; round < ROUNDS; round++) {
      const hasPackets = (ring: string) => (this.#level.get(ring) ?? 0) > 0
      const offer = (from: string): Mix | 'all' =>
        !isRing(from)
          ? (this.#sources.get(from) ?? none())
          : hasPackets(from)
            ? 'all'
            : (inflow.get(from) ?? none())
      const rates = this.#allocate(channels, offer)
      const reads: Read[] = channels.map((channel, i) => {
        const offered = offer(channel.from)
        const kind =
          offered !== 'all'
            ? shares(offered)
            : sum(inflow.get(channel.from) ?? none()) > 0
              ? shares(inflow.get(channel.from)!)
              : (this.#held.get(channel.from) ?? none())
        return { ...channel, rate: rates[i]!, mix: scaled(kind, rates[i]!) }
      })
      const taken = new Map<string, number>()
      for (const read of reads) taken.set(read.from, (taken.get(read.from) ?? 0) + read.rate)
      const sends: Send[] = reads.flatMap((read) =>
        read.rate > 0
          ? outputs(read).map(([to, mix]) => ({ runner: read.runner, to, mix, kept: 1 }))
          : [],
      )
      const offered = new Map<string, number>()
      for (const send of sends) offered.set(send.to, (offered.get(send.to) ?? 0) + sum(send.mix))
      const into = new Map<string, Mix>()
      for (const send of sends) {
        if (!isRing(send.to)) continue // it leaves the host (a phy, vhost, pcap or null port)
        const full = (this.#level.get(send.to) ?? 0) >= RING_SIZE
        const wanted = offered.get(send.to)!
        send.kept = full && wanted > 0 ? Math.min(1, (taken.get(send.to) ?? 0) / wanted) : 1
        if (!into.has(send.to)) into.set(send.to, none())
        addInto(into.get(send.to)!, send.mix, send.kept)
      }
      const fillRate = new Map<string, number>()
      for (const ring of new Set([...into.keys(), ...taken.keys()].filter(isRing)))
        fillRate.set(ring, sum(into.get(ring) ?? none()) - (taken.get(ring) ?? 0))
      const settled = sameMixes(into, inflow)
      inflow = into
      flow = { reads, sends, into, fillRate }
      if (settled) break
    }
    return flow
  }

  /**
   * Shares what each endpoint offers among its readers and each process's pace among its reads,
   * fairly: every read rises together until its endpoint or its process can give no more.
   */
  #allocate(channels: Channel[], offer: (from: string) => Mix | 'all'): number[] {
    const rate = channels.map(() => 0)
    const open = channels.map(() => true)
    const groups = new Map<string, { members: number[]; cap: number }>()
    const join = (key: string, cap: number, i: number) => {
      if (!groups.has(key)) groups.set(key, { members: [], cap })
      groups.get(key)!.members.push(i)
    }
    channels.forEach((channel, i) => {
      const offered = offer(channel.from)
      if (offered !== 'all') join(`port ${channel.from}`, sum(offered), i)
      join(`process ${channel.runner.lane}`, this.#caps[channel.runner.lane] ?? READER_PPS, i)
    })
    for (let left = channels.length; left > 0;) {
      // The level at which each group with rising reads is used up; the lowest stops them.
      const levels = [...groups.values()].map(({ members, cap }) => {
        let fixed = 0
        let rising = 0
        for (const i of members) {
          if (open[i]) rising++
          else fixed += rate[i]!
        }
        return rising > 0 ? Math.max(0, cap - fixed) / rising : Infinity
      })
      const level = Math.min(...levels)
      for (let i = 0; i < rate.length; i++) if (open[i]) rate[i] = level
      ;[...groups.values()].forEach(({ members }, g) => {
        if (levels[g]! > level * (1 + 1e-12)) return
        for (const i of members)
          if (open[i]) {
            open[i] = false
            left--
          }
      })
    }
    return rate
  }
}

/** Whether two sets of mixes are the same, to within rounding. */
function sameMixes(a: Map<string, Mix>, b: Map<string, Mix>): boolean {
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key) ?? new Map<string, number>()
    const y = b.get(key) ?? new Map<string, number>()
    for (const c of new Set([...x.keys(), ...y.keys()])) {
      const u = x.get(c) ?? 0
      const v = y.get(c) ?? 0
      if (Math.abs(u - v) > 1e-9 * Math.max(1, Math.abs(u), Math.abs(v))) return false
    }
  }
  return true
}
