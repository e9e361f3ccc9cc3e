// The paths as the controller knows them now, their verdicts' changes told as events and log
// lines, and the rates pushed to the event streams that ask for them.
import type { Logger } from 'pino'
import type { Registry } from '../actors/registry.ts'
import type { Cause } from '../actors/settled.ts'
import type { CounterHistory } from '../observe/counter-history.ts'
import { counterRates } from '../observe/counter-rates.ts'
import type { EventHub } from '../observe/event-hub.ts'
import { verdictEvent } from '../observe/events.ts'
import type { StatusReads } from '../observe/status-reads.ts'
import { kindOfSection, parseId, PRIMARY, SECTIONS } from '../protocol/process-id.ts'
import { knownTopology } from './known-topology.ts'
import type { HopVerdict, PathsDocument } from './path-document.ts'
import { pathsOf } from './paths.ts'
import { documentOrder } from './read-topology.ts'

/** Calls `tick` once, after `ms`; returns how to cancel it (node's timer, or a test's). */
export type Timer = (ms: number, tick: () => void) => () => void

const NODE_TIMER: Timer = (ms, tick) => {
  const timer = setTimeout(tick, ms)
  timer.unref() // the rates never keep the controller from stopping
  return () => clearTimeout(timer)
}

export type PathWatchOptions = {
  registry: Registry
  reads: StatusReads
  history: CounterHistory
  hub: EventHub
  log: Logger
  /** How the rates pushed wait for their next read. */
  timer?: Timer
}

/** What a hop was last judged, to tell when it changes. */
type Judged = Omit<HopVerdict, 'verdict'> & { verdict: string; reason: string }

/**
 * The paths through what every process is configured to do (each secondary as the controller
 * knows it, from its last read and every change since: no command is sent for them) with the
 * rates of the primary's counters over its last reads (`history`). Worked out again only when a
 * read of the primary or anything of a process changed since, and at each read of the primary
 * (whoever made it), so that a verdict that changes is told as soon as a read shows it: a
 * `path.verdict` event and a log line (a hop whose rates cannot be told yet keeps its last
 * verdict). While a stream asks for rates (`/v1/events?rates=1`), the primary's counters are read
 * once per max(1 s, --status-max-age), shared with every other reader, and each read is pushed as
 * a `rates` event; nobody asking, nothing is read.
 */
export class PathWatch {
  readonly #registry: Registry
  readonly #reads: StatusReads
  readonly #history: CounterHistory
  readonly #hub: EventHub
  readonly #log: Logger
  readonly #timer: Timer
  #generation = 0
  #memo: { key: string; document: PathsDocument; verdicts: HopVerdict[] } | undefined
  readonly #judged = new Map<string, Judged>()
  #verdictsText = ''
  // The rates pushed: whether streams ask, the next read's timer, the read pushed last.
  #watching = false
  #cancel: (() => void) | undefined
  #pushedAt: number | undefined
  readonly #stops: (() => void)[] = []

  constructor(options: PathWatchOptions) {
    const { registry, history, hub } = options
    this.#registry = registry
    this.#reads = options.reads
    this.#history = history
    this.#hub = hub
    this.#log = options.log
    this.#timer = options.timer ?? NODE_TIMER
    const changed = () => void this.#generation++
    // A read of the primary is the history's (its version); anything else may change a mover.
    this.#stops.push(
      registry.changes((settled) => {
        if (!(settled.read && settled.process.kind === 'primary')) changed()
      }),
    )
    registry.on('registered', changed)
    registry.on('removed', changed)
    this.#stops.push(() => registry.off('registered', changed).off('removed', changed))
    this.#stops.push(
      history.onRead(() => {
        // Heard inside the registry's change stream: what fails here must not drop the primary.
        try {
          this.current()
        } catch (err) {
          this.#log.error({ err }, 'paths not worked out')
        }
      }),
    )
    this.#stops.push(hub.onRatesWatchers((watchers) => this.#watch(watchers > 0)))
  }

  /** The paths from the reads made so far (none is made for them). */
  current(): PathsDocument {
    return this.#computed().document
  }

  /**
   * The paths with the primary read first (shared with every other reader within
   * --status-max-age; a failed read leaves the last one's counters), and when that read was
   * answered (the reads' clock; undefined without one).
   */
  async fresh(cause?: Cause): Promise<{ document: PathsDocument; readAt: number | undefined }> {
    if (this.#registry.has(PRIMARY))
      await this.#reads.read(this.#registry.find(PRIMARY), cause).catch(() => undefined)
    return { document: this.current(), readAt: this.#history.pair()?.newer.at }
  }

  /** Every hop's verdict, as GET /v1/topology carries them: the same array while they are the same. */
  verdicts(): HopVerdict[] {
    return this.#computed().verdicts
  }

  /** Stops the rates and stops listening (the controller stops). */
  close(): void {
    this.#watch(false)
    for (const stop of this.#stops.splice(0)) stop()
  }

  #computed() {
    const key = `${this.#history.version} ${this.#generation}`
    if (this.#memo?.key === key) return this.#memo
    const pair = this.#history.pair()
    const parts = knownTopology(documentOrder(this.#registry))
    const notRead: string[] = []
    for (const section of Object.values(SECTIONS))
      for (const [id, info] of Object.entries(parts[section] ?? {}))
        if ('error' in info) notRead.push(`${kindOfSection(section)}:${id}`)
    const status = pair?.newer.status
    if (status) parts.primary = status
    const document = pathsOf({ parts, status, rates: counterRates(pair), notRead })
    this.#tell(document)
    const verdicts = document.hops.map(({ id, from, to, by, verdict }) => ({
      hop: id,
      from,
      to,
      by,
      verdict,
    }))
    const text = JSON.stringify(verdicts)
    const same = this.#memo && text === this.#verdictsText
    this.#verdictsText = text
    this.#memo = { key, document, verdicts: same ? this.#memo!.verdicts : verdicts }
    return this.#memo
  }

  /** Tells every hop whose verdict changed, every hop first judged, every hop gone. */
  #tell(document: PathsDocument) {
    const present = new Set<string>()
    for (const hop of document.hops) {
      present.add(hop.id)
      const { verdict, reason } = hop.verdict
      if (verdict === 'unknown') continue
      const last = this.#judged.get(hop.id)
      if (last?.verdict === verdict && last.reason === reason) continue
      const judged = { hop: hop.id, from: hop.from, to: hop.to, by: hop.by, verdict, reason }
      this.#judged.set(hop.id, judged)
      this.#publish(judged, hop.verdict, last?.verdict ?? null)
    }
    for (const [id, last] of this.#judged)
      if (!present.has(id)) {
        this.#judged.delete(id)
        this.#publish(last, null, last.verdict)
      }
  }

  #publish(hop: Judged, verdict: HopVerdict['verdict'] | null, was: string | null) {
    const { type, data } = verdictEvent(parseId(hop.by.process) ?? PRIMARY, {
      hop: hop.hop,
      from: hop.from,
      to: hop.to,
      by: hop.by,
      verdict,
      was,
    })
    this.#hub.publish(type, data)
    const fields = { hop: hop.hop, verdict: verdict?.verdict ?? 'gone', was }
    if (verdict?.problem)
      this.#log.warn({ ...fields, reason: verdict.reason }, 'path verdict changed')
    else
      this.#log.info(
        verdict ? { ...fields, reason: verdict.reason } : fields,
        'path verdict changed',
      )
  }

  // The rates pushed.

  get #periodMs() {
    return Math.max(1000, this.#reads.maxAgeMs)
  }

  #watch(watching: boolean) {
    if (watching === this.#watching) return
    this.#watching = watching
    this.#cancel?.()
    this.#cancel = undefined
    if (watching) this.#tick()
  }

  /**
   * Pushes the newest read if a read of the last period is not pushed yet, else reads (a read
   * shared with every other reader); then waits until the newest read is a period old.
   */
  #tick() {
    this.#cancel = undefined
    if (!this.#watching) return
    const newest = this.#history.pair()?.newer
    const age = newest ? this.#history.now() - newest.at : Infinity
    if (age < this.#periodMs || !this.#registry.has(PRIMARY)) {
      this.#push()
      // From the age judged here: a moment later the read may be a period old, and the next
      // tick must then come at once, not a period later (a push skipped: two seconds without).
      return this.#next(age < this.#periodMs ? this.#periodMs - age : this.#periodMs)
    }
    // The newest read is a period old by the history's clock: a new one is wanted, whatever the
    // shared reads' clock (a moment later: it times the read once the history has heard it) says.
    this.#reads
      .read(this.#registry.find(PRIMARY), undefined, 0)
      .then(
        () => this.#push(),
        (err: unknown) => this.#log.debug({ err }, 'the rates pushed: the primary was not read'),
      )
      .finally(() => this.#next())
  }

  /**
   * The next tick after `wait` ms; after a read, when the newest read is a period old (a period
   * from now if it already is: a read that failed is not asked again at once).
   */
  #next(wait?: number) {
    if (!this.#watching || this.#cancel) return
    if (wait === undefined) {
      const newest = this.#history.pair()?.newer
      const age = newest ? this.#history.now() - newest.at : Infinity
      wait = age < this.#periodMs ? this.#periodMs - age : this.#periodMs
    }
    this.#cancel = this.#timer(wait, () => this.#tick())
  }

  #push() {
    const newest = this.#history.pair()?.newer
    if (!this.#watching || !newest || newest.at === this.#pushedAt) return
    this.#pushedAt = newest.at
    this.#hub.pushRates(this.current())
  }
}
