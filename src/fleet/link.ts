// A controller's link to the fleet: its alive lease, its observed state, its desired key in etcd.
import type { Etcd3, Lease } from 'etcd3'
import type { Logger } from 'pino'
import type { DesiredDocument } from '../topology/document.ts'
import { createDesiredSync, type DesiredRevision, type DesiredUpdate } from './desired-sync.ts'
import { sameCredentials, type EtcdCredentials } from './etcd-access.ts'
import { CALL_DEADLINE_MS, openEtcd } from './etcd-client.ts'
import { EtcdRefusedError, failureAtStart, failureOf } from './etcd-failure.ts'
import { ALIVE_TTL_SECONDS, DEFAULT_PREFIX, fleetKeys, type ObservedInput } from './keys.ts'
import { canonical } from './merge.ts'
import { createReachability } from './reachability.ts'

export type { DesiredRevision, DesiredUpdate } from './desired-sync.ts'

export type FleetLinkOptions = {
  /** etcd client URLs (`--etcd`). */
  endpoints: string[]
  /** `--etcd-ca`, `--etcd-cert`, `--etcd-key`, `--etcd-user`: as read from their files. */
  credentials?: EtcdCredentials
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
  /** The link came to work (true) or not (false): the `spp_etcd_up` gauge. */
  onUp?: (up: boolean) => void
  /** The desired document the local store holds at start. */
  desired?: DesiredDocument
  /** The last desired revision this host saw, as the local store kept it (see `seen`). */
  seen?: DesiredRevision
  /** Observed is written at most once per this (default 1000 ms). */
  observedIntervalMs?: number
  /** Failed writes are tried again after this (default 1000 ms), and at once when etcd is back. */
  retryMs?: number
  /** While etcd refuses, it is asked again after retryMs, doubling up to this (default 30 s). */
  maxRetryMs?: number
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
  /** Whether the link works: etcd answered its last call and refused none (`spp_etcd_up`). */
  readonly up: boolean
  /** The last desired revision this host saw in etcd: to remember with the local store. */
  readonly seen: DesiredRevision | undefined
  /** Whether a local desired change is still to be written to etcd. */
  readonly pending: boolean
  /** Resolves once the desired key was first read; never, while etcd stays unreachable. */
  readonly ready: Promise<void>
  /**
   * Resolves once the first calls went through (the desired key read, the alive key written), or
   * once etcd is found not there (the link tries again from then on); rejects with an
   * EtcdRefusedError, its one line, when etcd refused one of them first (a TLS handshake,
   * authentication, a permission): the link then does nothing more but wait to be closed, and a
   * controller does not start.
   */
  readonly started: Promise<void>
  /** A change accepted here: written to the desired key when etcd can take it, never blindly. */
  writeDesired(document: DesiredDocument): void
  /** The host's live state changed: written to the observed key, coalesced. */
  publishObserved(observed: ObservedInput): void
  /** Credentials read again (SIGHUP): a new client with them; false when they did not change. */
  reload(credentials: EtcdCredentials | undefined): boolean
  /** etcd requests made so far, by kind (for the bench and tests). */
  counts(): Record<string, number>
  /** Stops; `revoke` (default true) removes the alive key at once instead of at the TTL. */
  close(options?: { revoke?: boolean }): Promise<void>
}

/** Connects a controller to the fleet; resolves at once, whether etcd answers or not. */
export async function createFleetLink(options: FleetLinkOptions): Promise<FleetLink> {
  const { host, log, url, version, endpoints } = options
  const keys = fleetKeys(options.prefix ?? DEFAULT_PREFIX)
  const retryMs = options.retryMs ?? 1000
  const maxRetryMs = Math.max(retryMs, options.maxRetryMs ?? 30_000)
  const interval = options.observedIntervalMs ?? 1000
  let credentials = options.credentials
  // A client with a user is refused everything by an etcd whose authentication is not enabled
  // (yet: an open fleet moving over): it works without the user until etcd asks for one, as
  // etcd's own clients do.
  let authenticating = true
  let client: Etcd3 = await openEtcd(endpoints, credentials)
  const counts = { observed: 0, observedSkipped: 0, alive: 0, leases: 0, clients: 1 }
  let closed = false
  const schedule = options.schedule ?? timeout
  const cancels = new Set<() => void>()
  const later = (ms: number, run: () => void) => {
    const cancel = schedule(ms, () => {
      cancels.delete(cancel)
      run()
    })
    cancels.add(cancel)
    return () => (cancels.delete(cancel), cancel())
  }

  let refusedTries = 0
  const reach = createReachability(log, endpoints, (up) => {
    options.onUp?.(up)
    if (!up) return void (nextProbe ??= later(retryMs, probe))
    refusedTries = 0
    resume()
  })
  // While refused, etcd is asked less and less often: a fleet of hosts with a wrong password must
  // not keep etcd busy checking it (each check is a bcrypt).
  const retryIn = () =>
    reach.refused ? Math.min(maxRetryMs, retryMs * 2 ** Math.min(refusedTries, 16)) : retryMs

  // Start: settled by the first outcome of the link's first calls.
  let starting = true
  let refusedAtStart = false
  let settle: (error?: Error) => void = () => undefined
  const started = new Promise<void>((resolve, reject) => {
    settle = (error) => {
      if (!starting) return
      starting = false
      clearTimeout(startLimit)
      if (error) reject(error)
      else resolve()
    }
  })
  started.catch(() => undefined) // the caller's to handle; nothing else waits on it
  // Each call has a deadline; the watch has none, so its read is not waited for past this.
  const startLimit = setTimeout(() => settle(), 2 * CALL_DEADLINE_MS)
  startLimit.unref()
  let read = false
  let written = false
  const contact = () => read && written && settle()

  /**
   * A call failed: true when it was the link's failure (handled here), false for the call's own.
   * A stream that broke (`stream`) is the link's failure whatever broke it.
   */
  function fail(error: unknown, what: string, write = false, stream = false): boolean {
    if (closed || refusedAtStart) return true
    let failure = failureOf(error, { endpoints, credentials, what })
    if (failure.kind === 'call' && stream) {
      // A stream that ended, no reason given: etcd went away, unless a call already said why
      // (at start, or while down, the calls' precise failures tell).
      if (starting || reach.down) return true
      failure = { ...failure, kind: 'unreachable' }
    }
    switch (failure.kind) {
      case 'call':
        return false
      case 'stale': // etcd3 authenticates again for a call, not for a watch stream
        renewSoon()
        return true
      case 'auth-off':
        // Said as well by calls of the client being replaced: the first one switches.
        if (authenticating) {
          authenticating = false
          log.info(
            { endpoints, user: credentials?.auth?.username },
            "etcd's authentication is not enabled: working without the user until it is",
          )
          renewSoon()
        }
        return true
      case 'no-user':
        if (!authenticating) {
          authenticating = true
          log.info(
            { endpoints, user: credentials?.auth?.username },
            "etcd's authentication is enabled now: authenticating",
          )
          renewSoon()
        }
        return true
      case 'refused':
        if (starting) {
          refusedAtStart = true
          settle(new EtcdRefusedError(failure.line))
        } else reach.failed(failure, write)
        return true
      case 'unreachable':
        if (!starting) reach.failed(failure, write)
        // An etcd with TLS hangs up on plain HTTP ("Failed to connect"): asked before saying so.
        else
          void failureAtStart(error, { endpoints, credentials, what }).then((atStart) => {
            if (atStart.kind === 'refused' && starting) {
              refusedAtStart = true
              return settle(new EtcdRefusedError(atStart.line))
            }
            settle()
            if (!closed) reach.failed(failure, write)
          })
        return true
    }
  }

  const desired = createDesiredSync({
    client: () => client,
    key: keys.desired(host),
    log,
    link: {
      get down() {
        return reach.down
      },
      ok: (write) => reach.ok(write),
      failed: fail,
      watchFailed(error) {
        const what = `watching ${keys.desired(host)}`
        const { kind } = failureOf(error, { endpoints, credentials, what })
        if (kind === 'call') {
          log.warn(
            { key: keys.desired(host), err: error },
            'desired watch cancelled; watching again',
          )
          return void later(retryMs, () => desired.rewatch())
        }
        fail(error, what)
        // etcd3 attaches no further watch to a stream once etcd refused one: a new client's, at
        // once for an expired token or another authentication, else at the probe's pace.
        renewSoon(kind === 'refused' || kind === 'unreachable' ? retryIn() : 0)
      },
    },
    onDesired: options.onDesired,
    desired: options.desired,
    seen: options.seen,
    retryMs,
  })
  void desired.ready.then(() => ((read = true), contact()))

  /** Sends what waits: the desired key, observed, the alive key. `force`: the probe's writes. */
  function resume(force = false) {
    desired.kick(force)
    flushObserved(false, force)
    if (!lease) grant()
    else if (!aliveWritten) putAlive()
  }

  // While down, a read every retryMs: the watch reconnecting says etcd is back too, but a call can
  // fail (a deadline) while the watch stream stays up, and then nothing else would tell. When
  // etcd refused a write, that write is tried again too: only its success ends the refusal.
  let nextProbe: (() => void) | undefined
  function probe() {
    nextProbe?.()
    nextProbe = undefined
    if (closed || !reach.down) return
    if (reach.refused) refusedTries++
    if (reach.writeRefused) resume(true)
    desired
      .read()
      .catch((error: unknown) => fail(error, `reading ${keys.desired(host)}`))
      .finally(() => {
        if (reach.down && !closed) nextProbe ??= later(retryIn(), probe)
      })
  }

  /**
   * A new client, with the credentials and authentication in force: the old one finishes the
   * calls it has in flight (each has a deadline), then closes. The lease is granted anew (the
   * alive key moves to it; the old one ends at its TTL) and the desired key watched anew.
   */
  let renewing = false
  let renewAgain = false
  let renewTimer: NodeJS.Timeout | undefined
  const draining = new Set<Etcd3>()
  /** A renewal after `ms`, unless one is due already (several calls may tell the same). */
  function renewSoon(ms = 0) {
    if (renewTimer || closed) return
    renewTimer = setTimeout(() => {
      renewTimer = undefined
      void renew()
    }, ms)
  }
  async function renew(): Promise<void> {
    if (closed) return
    if (renewing) return void (renewAgain = true)
    renewing = true
    try {
      const next = await openEtcd(endpoints, credentials, { auth: authenticating })
      if (closed) return next.close()
      const old = client
      client = next
      counts.clients++
      draining.add(old)
      setTimeout(() => (draining.delete(old), old.close()), CALL_DEADLINE_MS).unref()
      lease?.release()
      lease = undefined
      desired.rewatch()
      if (reach.down) probe()
      else resume()
    } finally {
      renewing = false
      if (renewAgain) {
        renewAgain = false
        void renew()
      }
    }
  }

  // The alive key, on a lease kept alive by etcd3; a lost lease (etcd gone past the TTL) is
  // granted anew, and the key put again, once etcd answers.
  const alive = JSON.stringify({ url, version, started: new Date().toISOString() })
  let lease: Lease | undefined
  let aliveWritten = false
  let aliveWriting: Lease | undefined
  function grant() {
    if (closed) return
    const current = client.lease(options.ttlSeconds ?? ALIVE_TTL_SECONDS)
    lease = current
    aliveWritten = false
    counts.leases++
    current.on('lost', () => {
      if (closed || lease !== current) return
      lease = undefined
      // While down, the probe's success grants it (resume).
      later(retryMs, () => lease ?? (reach.down ? undefined : grant()))
    })
    putAlive()
  }
  function putAlive() {
    const current = lease
    if (!current || aliveWriting === current) return
    aliveWriting = current
    current
      .put(keys.alive(host))
      .value(alive)
      .then(
        () => {
          if (lease !== current) return
          aliveWritten = true
          counts.alive++
          reach.ok(true)
          written = true
          contact()
        },
        (error: unknown) => {
          if (lease !== current) return
          if (!fail(error, `writing ${keys.alive(host)}`, true))
            log.error({ err: error }, 'writing the alive key failed')
        },
      )
      .finally(() => aliveWriting === current && (aliveWriting = undefined))
  }

  // Observed: the latest value waits for the interval since the previous write (coalescing), or
  // for etcd's return; a value equal to the last one written is not written again.
  let next: ObservedInput | undefined
  let observedText = ''
  let lastWrite = -Infinity
  let waiting = false
  let writing = false
  // `due`: the interval's timer ran out (a timer of the tests' may run early; it is still due).
  // `force`: the probe's, while etcd refuses a write.
  function flushObserved(due = false, force = false) {
    if (closed || writing || waiting || next === undefined || (reach.down && !force)) return
    const wait = lastWrite + interval - performance.now()
    if (wait > 0 && !due) {
      waiting = true
      return void later(wait, () => ((waiting = false), flushObserved(true)))
    }
    const value = next
    next = undefined
    const text = canonical(value)
    if (text === observedText) return void counts.observedSkipped++
    writing = true
    lastWrite = performance.now()
    const document = { url, ...value, updated: new Date().toISOString() }
    client
      .put(keys.observed(host))
      .value(JSON.stringify(document))
      .exec()
      .then(
        () => ((observedText = text), counts.observed++, reach.ok(true)),
        (error: unknown) => {
          next ??= value
          if (!fail(error, `writing ${keys.observed(host)}`, true))
            log.error({ err: error }, 'writing observed failed')
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
    started,
    writeDesired: (document) => desired.write(document),
    publishObserved(observed) {
      next = observed
      flushObserved()
    },
    reload(next) {
      if (sameCredentials(credentials, next)) return false
      credentials = next
      authenticating = true
      refusedTries = 0
      void renew()
      return true
    },
    counts: () => ({ ...desired.counts, ...counts }),
    async close({ revoke = true } = {}) {
      closed = true
      settle()
      clearTimeout(renewTimer)
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
      for (const old of draining) old.close()
      draining.clear()
    },
  }
}
