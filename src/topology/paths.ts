// Every path packets take through the configuration, hop by hop, with the rates the primary's
// counters give each hop and each hop's verdict. Pure.
import type { CounterRate, CounterRates } from '../observe/counter-rates.ts'
import type { PrimaryStatus } from '../protocol/bodies.ts'
import { deviceOf, moversOf, type Mover, type MovingParts } from './movers.ts'
import {
  PROBLEMS,
  type Hop,
  type HopMover,
  type Path,
  type PathsDocument,
  type PortCounter,
  type Rate,
  type Verdict,
  type VerdictName,
} from './path-document.ts'

/** What the paths are worked out from. */
export type PathsInput = {
  /** Every process's configuration: the secondaries' as the controller knows them, the primary's read. */
  parts: MovingParts
  /** The newest read of the primary's status (its ports and counters), if any. */
  status?: PrimaryStatus | undefined
  rates: CounterRates
  /** Processes whose configuration is not known (not read yet, or unreadable). */
  notRead?: readonly string[]
}

/**
 * Counters SPP is known to leave at 0 for some moves (../shared/real-spp, traffic recordings): a
 * ring's rx (the secondaries read rings through devices of their own) and a phy port's tx when a
 * secondary sends. Still 0, such a counter says nothing; once it counts, it is used.
 */
const SOMETIMES_UNCOUNTED = /^(ring:\d+ rx(_drop)?|phy:\d+ tx(_drop)?)$/
/** Movers that send on what they take, so that what one delivers is what it was offered. */
const PASSES_ALL = new Set(['patch', 'forward', 'merge', 'mirror'])
const UNPOLLED_NOTE = 'a phy port counts what arrives only while something polls it'
export const DOWNSTREAM_NOTE =
  "18.11 counts here what was lost downstream of the port, not what it failed to send: not this port's drops"

type Draft = {
  id: string
  from: string
  to: string | null
  fromDev: string
  toDev: string | null
  mover: Mover
}

/** How reasons name a mover: a patch by its process (`nfv:1`), a component with it (`vf:2 fwd1`). */
export const labelOf = (mover: Pick<Mover, 'kind' | 'process' | 'name'>) =>
  mover.kind === 'patch' ? mover.process : `${mover.process} ${mover.name}`

const typeOf = (device: string) => /^([a-z]+):\d+$/.exec(device)?.[1]
const isRing = (device: string | null) => device !== null && typeOf(device) === 'ring'

/** The paths document: every entry's tree, every hop with its rates and verdict, every port's counters. */
export function pathsOf(input: PathsInput): PathsDocument {
  const { status, rates } = input
  const movers = moversOf(input.parts)
  const drafts = movers.flatMap((mover) =>
    mover.reads.flatMap((from) =>
      (mover.kind === 'capture' ? [null] : mover.writes).map((to): Draft => ({
        id: `${labelOf(mover)} ${from}>${to ?? 'file'}`,
        from,
        to,
        fromDev: deviceOf(from),
        toDev: to === null ? null : deviceOf(to),
        mover,
      })),
    ),
  )
  const graph = new Graph(drafts, movers)
  const counters = new Counters(rates)
  const hops = new Map<string, Hop>()
  for (const draft of drafts) {
    const rated = rateHop(draft, graph, counters)
    const verdict = judge(draft, rated, graph)
    const table = draft.mover.table?.filter((entry) => entry.port === draft.to)
    const end = endOf(draft, graph)
    hops.set(draft.id, {
      id: draft.id,
      from: draft.from,
      to: draft.to,
      by: moverOf(draft.mover),
      state: draft.mover.running ? 'running' : 'stopped',
      ...(table && { table }),
      rates: rated,
      verdict,
      ...(end && { end }),
      next: isRing(draft.toDev) ? graph.from(draft.toDev!).map((hop) => hop.id) : [],
    })
  }
  const paths = entriesOf(status, graph).map((entry) => pathOf(entry, graph, hops, counters))
  const polled = new Set(movers.filter((m) => m.running).flatMap((m) => m.reads.map(deviceOf)))
  const all = [...hops.values()]
  return {
    window_s: rates.windowS,
    not_read: [...(input.notRead ?? [])],
    ports: status ? portsOf(rates, polled) : {},
    paths,
    hops: all,
    problems: all.filter((hop) => hop.verdict.problem).map((hop) => hop.id),
  }
}

const moverOf = (mover: Mover): HopMover => ({
  process: mover.process,
  kind: mover.kind,
  name: mover.name,
  label: labelOf(mover),
})

/** Who reads and who writes each device. */
class Graph {
  readonly #from = new Map<string, Draft[]>()
  readonly #into = new Map<string, Draft[]>()
  readonly #readers = new Map<string, Mover[]>()

  constructor(drafts: readonly Draft[], movers: readonly Mover[]) {
    for (const draft of drafts) {
      push(this.#from, draft.fromDev, draft)
      if (draft.toDev !== null) push(this.#into, draft.toDev, draft)
    }
    for (const mover of movers)
      for (const device of new Set(mover.reads.map(deviceOf))) push(this.#readers, device, mover)
  }

  /** The hops that read a device. */
  from(device: string): Draft[] {
    return this.#from.get(device) ?? []
  }

  /** The hops that send into a device. */
  into(device: string): Draft[] {
    return this.#into.get(device) ?? []
  }

  /** The movers that read a device. */
  readers(device: string): Mover[] {
    return this.#readers.get(device) ?? []
  }

  /** Every device something reads. */
  read(): string[] {
    return [...this.#readers.keys()]
  }

  /** How many running hops send into a device (each (mover, port read) once). */
  runningWriters(device: string): number {
    return this.into(device).filter((hop) => hop.mover.running).length
  }
}

function push<K, T>(map: Map<K, T[]>, key: K, value: T) {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** The counters of the newest read, as hops use them. */
class Counters {
  readonly #rates: CounterRates

  constructor(rates: CounterRates) {
    this.#rates = rates
  }

  get downstreamTxDrop() {
    return this.#rates.downstreamTxDrop
  }

  /** The counter as it is, if the primary has it (and, for one SPP leaves at 0, once it counts). */
  counted(name: string, sharedBy = 1): Rate | undefined {
    const counter = this.#rates.counters.get(name)
    if (!counter || !countsNow(name, counter)) return undefined
    return {
      pps: counter.pps,
      source: 'counted',
      counter: name,
      ...(counter.missing && { missing: counter.missing }),
      ...(sharedBy > 1 && { shared_by: sharedBy }),
    }
  }
}

// Counters have few names (a port's few, of a few ports): each is taken apart once.
const names = new Map<string, { port: string; field: string; phy: boolean; sometimes: boolean }>()
function partsOf(name: string) {
  let parts = names.get(name)
  if (!parts) {
    if (names.size > 100_000) names.clear() // a primary with that many ports: kept no longer
    const [port = '', field = ''] = name.split(' ')
    const sometimes = SOMETIMES_UNCOUNTED.test(name)
    names.set(name, (parts = { port, field, phy: port.startsWith('phy:'), sometimes }))
  }
  return parts
}

const countsNow = (name: string, counter: CounterRate) =>
  !partsOf(name).sometimes || counter.value > 0 || (counter.pps ?? 0) > 0

const notCounted = (counter: string | null, note?: string): Rate => ({
  pps: null,
  source: 'not counted',
  counter,
  ...(note && { note }),
})

/** A rate taken from another counter (a ring's rx from its tx), marked as inferred. */
function inferred(from: Rate, note: string): Rate {
  const { pps, counter, missing } = from
  return { pps, source: 'inferred', counter, ...(missing && { missing }), note }
}

/** What a hop is offered, delivers and loses, from the counters that count it. */
function rateHop(draft: Draft, graph: Graph, counters: Counters): Hop['rates'] {
  const { fromDev, toDev, mover } = draft
  const readers = graph.readers(fromDev).filter((m) => m.running).length
  let offered: Rate
  if (typeOf(fromDev) === 'phy') offered = phyRx(fromDev, readers, counters)
  else if (typeOf(fromDev) === 'ring') {
    const tx = counters.counted(`${fromDev} tx`)
    offered =
      counters.counted(`${fromDev} rx`, readers) ??
      (tx && mover.running && readers === 1
        ? inferred(tx, `what enters ${fromDev} is what its one reader takes`)
        : notCounted(`${fromDev} rx`))
  } else offered = notCounted(`${fromDev} rx`)

  if (toDev === null) return { offered, delivered: notCounted(null), dropped: notCounted(null) }
  const writers = graph.runningWriters(toDev)
  const passed = () =>
    PASSES_ALL.has(mover.kind) &&
    offered.source !== 'not counted' &&
    offered.shared_by === undefined
      ? inferred(offered, `what ${labelOf(mover)} takes, it sends on`)
      : undefined
  if (typeOf(toDev) === 'ring')
    return {
      offered,
      delivered: counters.counted(`${toDev} tx`, writers) ?? notCounted(`${toDev} tx`),
      dropped: counters.counted(`${toDev} tx_drop`, writers) ?? notCounted(`${toDev} tx_drop`),
    }
  const txDrop = `${toDev} tx_drop`
  const dropped =
    typeOf(toDev) === 'phy' && counters.downstreamTxDrop
      ? notCounted(txDrop, DOWNSTREAM_NOTE)
      : (counters.counted(txDrop, writers) ?? notCounted(typeOf(toDev) ? txDrop : null))
  const tx = `${toDev} tx`
  const delivered =
    counters.counted(tx, writers) ?? passed() ?? notCounted(typeOf(toDev) ? tx : null)
  return { offered, delivered, dropped }
}

/**
 * What arrives at a phy port, which counts only while something polls it (the recordings): with
 * no running reader, a counter that does not grow says nothing.
 */
function phyRx(device: string, readers: number, counters: Counters): Rate {
  const rx = counters.counted(`${device} rx`, readers)
  if (!rx) return notCounted(`${device} rx`)
  return readers > 0 || (rx.pps ?? 0) > 0 ? rx : notCounted(rx.counter, UNPOLLED_NOTE)
}

/** Where a hop's branch ends, if it does. */
function endOf(draft: Draft, graph: Graph): Hop['end'] {
  if (draft.toDev === null) return 'captured'
  if (!typeOf(draft.toDev)) return 'unread' // `udf`: an nfv's patch to a port since deleted
  if (!isRing(draft.toDev)) return 'leaves'
  return graph.readers(draft.toDev).length === 0 ? 'unread' : undefined
}

const isProblem = (name: VerdictName) => PROBLEMS.includes(name)
const verdict = (name: VerdictName, reason: string, more: Partial<Verdict> = {}): Verdict => ({
  verdict: name,
  problem: isProblem(name),
  reason,
  ...more,
})

/** The first verdict that applies to a hop (the order of VERDICTS). */
function judge(draft: Draft, rates: Hop['rates'], graph: Graph): Verdict {
  const { mover, from, to, fromDev, toDev } = draft
  const { offered, delivered, dropped } = rates
  const label = labelOf(mover)
  if (mover.running && dropped.source === 'counted' && (dropped.pps ?? 0) > 0)
    return dropping(draft, graph)
  if (!mover.running)
    return verdict('idle', `${label} is stopped: it moves nothing from ${from}`, {
      stopped: [label],
    })
  const upstream = stoppedUpstream(fromDev, graph, new Set())
  if (upstream)
    return verdict('idle', `nothing reaches ${from}: what sends into it is stopped`, {
      stopped: upstream,
    })
  if (isRing(fromDev) && isRing(toDev) && comesBack(toDev!, fromDev, graph))
    return verdict('loop', `what ${label} sends into ${to} comes back to ${from}`, {
      port: fromDev,
    })
  if (toDev !== null && !typeOf(toDev))
    return verdict('dead_end', `${label} sends to ${to}: a port since deleted`, { port: to! })
  if (isRing(toDev) && graph.readers(toDev!).length === 0) {
    // Whether its drops grow is not known yet: dropping, or an application's, or a dead end.
    if (dropped.missing) return unknown(dropped.missing)
    if ((delivered.pps ?? 0) > 0 && dropped.pps === 0)
      return verdict(
        'flowing',
        `no SPP process reads ${to}, yet it takes all: an application reads it`,
      )
    return verdict(
      'dead_end',
      `nothing reads ${to}: once it is full, what is sent into it is dropped`,
      {
        port: toDev!,
      },
    )
  }
  const known = [offered, delivered].filter((rate) => rate.source !== 'not counted')
  const missing = known.find((rate) => rate.pps === null)?.missing
  if (missing) return unknown(missing)
  if (known.length === 0)
    return verdict('not_counted', `SPP counts nothing of this hop, nor of what comes before it`)
  if (known.some((rate) => rate.pps! > 0))
    return verdict('flowing', `packets pass ${from}>${to ?? 'file'}`)
  return verdict('no_traffic', `nothing arrives at ${from}`)
}

const unknown = (missing: NonNullable<Rate['missing']>) =>
  verdict(
    'unknown',
    missing === 'reset'
      ? 'the counters went down (cleared, or the primary restarted): rates from the next reads'
      : 'no two reads of the counters a second apart yet',
  )

/** Drops grow at the port a hop sends into: its readers are none, stopped, or slower. */
function dropping(draft: Draft, graph: Graph): Verdict {
  const port = draft.toDev!
  const more = { port }
  if (!isRing(port))
    return verdict('dropping', `${port} does not send as fast as it is sent to`, {
      ...more,
      reader: 'slower',
      readers: [port],
    })
  const readers = graph.readers(port)
  if (readers.length === 0)
    return verdict(
      'dropping',
      `nothing reads ${port}: what is sent into it is dropped (an application reading it, if any, is slower than its writers)`,
      { ...more, reader: 'none', readers: [] },
    )
  const running = readers.filter((m) => m.running).map(labelOf)
  if (running.length === 0) {
    const stopped = readers.map(labelOf)
    return verdict('dropping', `${port}'s readers are stopped: ${stopped.join(', ')}`, {
      ...more,
      reader: 'stopped',
      readers: stopped,
    })
  }
  return verdict(
    'dropping',
    `${running.join(', ')} ${running.length === 1 ? 'reads' : 'read'} ${port} slower than its writers send into it`,
    { ...more, reader: 'slower', readers: running },
  )
}

/**
 * The stopped movers that are all that sends into a ring (theirs, recursively, for a running one
 * fed only by stopped ones); undefined when something running feeds it, or nothing SPP does (an
 * application may).
 */
function stoppedUpstream(device: string, graph: Graph, seen: Set<string>): string[] | undefined {
  if (!isRing(device) || seen.has(device)) return undefined
  seen.add(device)
  const writers = graph.into(device)
  if (writers.length === 0) return undefined
  const stopped = new Set<string>()
  for (const writer of writers) {
    if (!writer.mover.running) stopped.add(labelOf(writer.mover))
    else {
      const before = stoppedUpstream(writer.fromDev, graph, seen)
      if (!before) return undefined
      for (const label of before) stopped.add(label)
    }
  }
  return [...stopped]
}

/** Whether what running hops carry from ring `start` reaches ring `target`. */
function comesBack(start: string, target: string, graph: Graph): boolean {
  const seen = new Set<string>([start])
  const queue = [start]
  for (let device = queue.shift(); device !== undefined; device = queue.shift()) {
    if (device === target) return true
    for (const hop of graph.from(device))
      if (hop.mover.running && isRing(hop.toDev) && !seen.has(hop.toDev!)) {
        seen.add(hop.toDev!)
        queue.push(hop.toDev!)
      }
  }
  return false
}

/** Ports by type, then by number (`ring:2` before `ring:10`). */
function byName(a: string, b: string): number {
  const [typeA = '', numberA] = a.split(':')
  const [typeB = '', numberB] = b.split(':')
  return typeA === typeB ? Number(numberA) - Number(numberB) : typeA < typeB ? -1 : 1
}

/** Where packets enter: every phy port, every other port read that is not a ring, every ring only an application writes. */
function entriesOf(status: PrimaryStatus | undefined, graph: Graph): string[] {
  const phys = (status?.phy_ports ?? []).map((port) => `phy:${port.id}`)
  const read = graph.read().filter((device) => !phys.includes(device))
  const others = read.filter((device) => !isRing(device)).sort(byName)
  const fedOutside = read
    .filter((device) => isRing(device) && graph.into(device).length === 0)
    .sort(byName)
  return [...phys, ...others, ...fedOutside]
}

const SUMMARY: readonly VerdictName[] = [
  ...PROBLEMS,
  'unknown',
  'flowing',
  'no_traffic',
  'not_counted',
]

function pathOf(entry: string, graph: Graph, hops: Map<string, Hop>, counters: Counters): Path {
  const first = graph.from(entry).map((hop) => hop.id)
  const readers = graph.readers(entry).filter((m) => m.running).length
  const arriving =
    typeOf(entry) === 'phy'
      ? phyRx(entry, readers, counters)
      : isRing(entry)
        ? (counters.counted(`${entry} tx`) ?? notCounted(`${entry} tx`))
        : notCounted(`${entry} rx`)
  // Every hop the tree reaches, each once (a loop comes back to one already seen).
  const seen = new Set<string>()
  const queue = [...first]
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    if (seen.has(id)) continue
    seen.add(id)
    queue.push(...hops.get(id)!.next)
  }
  const found = new Set([...seen].map((id) => hops.get(id)!.verdict.verdict))
  return {
    entry,
    arriving,
    polled: graph.readers(entry).length > 0,
    first,
    verdict: SUMMARY.find((name) => found.has(name)) ?? null,
  }
}

/** Each counter of each port the primary counts, read as the hops read it (`polled`: by a running mover). */
function portsOf(rates: CounterRates, polled: ReadonlySet<string>): PathsDocument['ports'] {
  const ports: PathsDocument['ports'] = {}
  for (const [name, counter] of rates.counters) {
    const { port, field, phy } = partsOf(name)
    const unpolled = phy && field === 'rx' && !polled.has(port)
    const note =
      phy && field === 'tx_drop' && rates.downstreamTxDrop
        ? DOWNSTREAM_NOTE
        : unpolled
          ? UNPOLLED_NOTE
          : undefined
    const counted = countsNow(name, counter) && !(unpolled && !((counter.pps ?? 0) > 0))
    // Built member by member: a spread per counter cost more than the rest of the paths.
    const shown: PortCounter = { value: counter.value, pps: counted ? counter.pps : null, counted }
    if (counted && counter.missing) shown.missing = counter.missing
    if (note) shown.note = note
    ;(ports[port] ??= {})[field] = shown
  }
  return ports
}
