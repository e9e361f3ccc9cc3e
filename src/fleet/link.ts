// A controller's link to the fleet: its alive lease, its observed state, its desired key in etcd.
import type { Etcd3, Lease } from 'etcd3'
import type { Logger } from 'pino'
import type { DesiredDocument } from '../topology/document.ts'
import { createDesiredSync, type DesiredRevision, type DesiredUpdate } from './desired-sync.ts'
import { CALL_DEADLINE_MS, isConnectionError, openEtcd } from './etcd-client.ts'
import { ALIVE_TTL_SECONDS, DEFAULT_PREFIX, fleetKeys, type ObservedInput } from './keys.ts'
import { canonical } from './merge.ts'
import { createReachability } from './reachability.ts'

export type { DesiredRevision, DesiredUpdate } from './desired-sync.ts'

export type FleetLinkOptions = {
  /** etcd client URLs (`--etcd`). */
  endpoints: string[]
  /** `--etcd-prefix` (default `/spp-ctl/`). */
  prefix?: string
  /** `--host-name`. */
  host: string
  /** This controller's REST API, as other machines reach it. */
  url: string
  version: string
  log: Logger
  /** Each new desired revision (written by anyone else, or merged on reconnection) to apply. */
  onDesired: (update: DesiredUpdate) => void
  /** etcd became reachable (true) or not (false): the `spp_etcd_up` gauge. */
  onUp?: (up: boolean) => void
  /** The desired document the local store holds at start. */
  desired?: DesiredDocument
  /** The last desired revision this host saw, as the local store kept it (see `seen`). */
  seen?: DesiredRevision
  /** Observed is written at most once per this (default 1000 ms). */
  observedIntervalMs?: number
  /** Failed writes are tried again after this (default 1000 ms), and at once when etcd is back. */
  retryMs?: number
  /** The alive lease's TTL (default 10 s). */
  ttlSeconds?: number
  /** Runs `run` after `ms`, answering how to cancel it (default setTimeout; tests run it when they choose). */
  schedule?: Schedule
}

/** A timer: runs `run` after `ms`; what it returns cancels it. */
export type Schedule = (ms: number, run: () => void) => () => void

const timeout: Schedule = (ms, run) => {
  const timer = setTimeout(run, ms)
  return () => clearTimeout(timer)
}

/** What a controller does with the fleet; no method waits on etcd or throws for it. */
export type FleetLink = {
  /** Whether etcd answered the last call (the `spp_etcd_up` gauge). */
  readonly up: boolean
  /** The last desired revision this host saw in etcd: to remember with the local store. */
  readonly seen: DesiredRevision | undefined
  /** Whether a local desired change is still to be written to etcd. */
  readonly pending: boolean
  /** Resolves once the desired key was first read; never, while etcd stays unreachable. */
  readonly ready: Promise<void>
  /** A change accepted here: written to the desired key when etcd can take it, never blindly. */
  writeDesired(document: DesiredDocument): void
  /** The host's live state changed: written to the observed key, coalesced. */
  publishObserved(observed: ObservedInput): void
  /** etcd requests made so far, by kind (for the bench and tests). */
  counts(): Record<string, number>
  /** Stops; `revoke` (default true) removes the alive key at once instead of at the TTL. */
  close(options?: { revoke?: boolean }): Promise<void>
}

/** Connects a controller to the fleet; resolves at once, whether etcd answers or not. */
export async function createFleetLink(options: FleetLinkOptions): Promise<FleetLink> {
  const { host, log, url, version } = options
  const keys = fleetKeys(options.prefix ?? DEFAULT_PREFIX)
  const retryMs = options.retryMs ?? 1000
  const interval = options.observedIntervalMs ?? 1000
  const client: Etcd3 = await openEtcd(options.endpoints)
  const reach = createReachability(log, options.endpoints, (up) => {
    options.onUp?.(up)
    if (!up) return void later(retryMs, probe)
    desired.kick()
    flushObserved()
    if (!lease) grant()
  })
  const desired = createDesiredSync({
    client,
    key: keys.desired(host),
    log,
    reach,
    onDesired: options.onDesired,
    desired: options.desired,
    seen: options.seen,
    retryMs,
  })
  const counts = { observed: 0, observedSkipped: 0, alive: 0, leases: 0 }
  let closed = false
  const schedule = options.schedule ?? timeout
  const cancels = new Set<() => void>()
  const later = (ms: number, run: () => void) => {
    const cancel = schedule(ms, () => {
      cancels.delete(cancel)
      run()
    })
    cancels.add(cancel)
  }

  // While down, a read every retryMs: the watch reconnecting says etcd is back too, but a call can
  // fail (a deadline) while the watch stream stays up, and then nothing else would tell.
  function probe() {
    if (closed || !reach.down) return
    desired
      .read()
      .catch((error: unknown) => reach.failed(error))
      .finally(() => reach.down && later(retryMs, probe))
  }

  // The alive key, on a lease kept alive by etcd3; a lost lease (etcd gone past the TTL) is
  // granted anew, and the key put again, once etcd answers.
  const alive = JSON.stringify({ url, version, started: new Date().toISOString() })
  let lease: Lease | undefined
  function grant() {
    if (closed) return
    const current = client.lease(options.ttlSeconds ?? ALIVE_TTL_SECONDS)
    lease = current
    counts.leases++
    current.on('lost', () => {
      if (closed || lease !== current) return
      lease = undefined
      later(retryMs, () => lease ?? grant())
    })
    current
      .put(keys.alive(host))
      .value(alive)
      .then(
        () => (counts.alive++, reach.ok()),
        (error: unknown) => reach.failed(error),
      )
  }

  // Observed: the latest value waits for the interval since the previous write (coalescing), or
  // for etcd's return; a value equal to the last one written is not written again.
  let next: ObservedInput | undefined
  let written = ''
  let lastWrite = -Infinity
  let waiting = false
  let writing = false
  // `due`: the interval's timer ran out (a timer of the tests' may run early; it is still due).
  function flushObserved(due = false) {
    if (closed || writing || waiting || next === undefined || reach.down) return
    const wait = lastWrite + interval - performance.now()
    if (wait > 0 && !due) {
      waiting = true
      return later(wait, () => ((waiting = false), flushObserved(true)))
    }
    const value = next
    next = undefined
    const text = canonical(value)
    if (text === written) return void counts.observedSkipped++
    writing = true
    lastWrite = performance.now()
    const document = { url, ...value, updated: new Date().toISOString() }
    client
      .put(keys.observed(host))
      .value(JSON.stringify(document))
      .exec()
      .then(
        () => ((written = text), counts.observed++, reach.ok()),
        (error: unknown) => {
          next ??= value
          if (isConnectionError(error)) reach.failed(error)
          else log.error({ err: error }, 'writing observed failed')
        },
      )
      .finally(() => {
        writing = false
        if (reach.up) flushObserved()
      })
  }

  grant()
  return {
    get up() {
      return reach.up
    },
    get seen() {
      return desired.seen
    },
    get pending() {
      return desired.pending
    },
    ready: desired.ready,
    writeDesired: (document) => desired.write(document),
    publishObserved(observed) {
      next = observed
      flushObserved()
    },
    counts: () => ({ ...desired.counts, ...counts }),
    async close({ revoke = true } = {}) {
      closed = true
      for (const cancel of cancels) cancel()
      const bounded = (work: Promise<unknown>) =>
        Promise.race([
          work.catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, CALL_DEADLINE_MS).unref()),
        ])
      await bounded(desired.close())
      if (lease && revoke && reach.up) await bounded(lease.revoke())
      else lease?.release() // the key goes at the TTL, as when the controller is killed
      client.close()
    },
  }
}
