// A controller's side of the fleet (--etcd): its link, its observed key kept current, spp_etcd_up,
// and (with a state directory) the desired key as what it remembers.
import { hostname } from 'node:os'
import type { Logger } from 'pino'
import { Gauge } from '../observe/prom.ts'
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import { statusOf } from '../protocol/kinds/status.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { Metrics } from '../observe/metrics.ts'
import type { Memory } from '../remember/memory.ts'
import type { Restorer, RestoreMode } from '../remember/restore.ts'
import { desiredSide } from './desired-side.ts'
import { readCredentials, type EtcdCredentials } from './etcd-access.ts'
import { DEFAULT_PREFIX, fleetKeys } from './keys.ts'
import { createFleetLink, type FleetLink } from './link.ts'
import { observedOf } from './observed-of.ts'

/** The flags: `--etcd`, `--host-name`, `--etcd-prefix`, and the version the alive key tells. */
export type FleetSettings = {
  endpoints: string[]
  /** `--etcd-ca`, `--etcd-cert`, `--etcd-key`, `--etcd-user`: as read at start. */
  credentials?: EtcdCredentials
  /** This host's name in the fleet (default: the machine's hostname). */
  host?: string
  prefix?: string
  version: string
  /** Observed is rewritten at most once per this (default 1000 ms). */
  observedIntervalMs?: number
}

export type ControllerFleetOptions = {
  settings: FleetSettings
  registry: Registry
  hub: EventHub
  metrics: Metrics
  log: Logger
  /** The REST API's address and port as bound (a wildcard address is named by the hostname). */
  api: { host: string; port: number }
  /** What the controller remembers and how it restores; none with --state-dir none. */
  remembering?: { memory: Memory; restorer: Restorer; mode: RestoreMode }
}

/** The controller's fleet link; `close` revokes its alive key. */
export type ControllerFleet = {
  link: FleetLink
  /**
   * Reads etcd's credentials again from their files (SIGHUP): a new client with them when they
   * changed. A file that cannot be read keeps the ones in force, and says why. Resolves whether
   * new credentials are in force.
   */
  reloadCredentials(): Promise<boolean>
  close(): Promise<void>
}

/** The API's URL as other machines reach it. */
export const apiUrl = ({ host, port }: ControllerFleetOptions['api']) =>
  `http://${host === '0.0.0.0' ? hostname() : host}:${port}/`

/**
 * Connects the controller to etcd: waits for its first answer, not for etcd to be there (a link to
 * an etcd that does not answer is made at once, and tries again); rejects with an
 * EtcdRefusedError's line when etcd refuses this host (a TLS handshake, authentication, a
 * permission). Nothing on the request path ever calls it.
 */
export async function startControllerFleet(
  options: ControllerFleetOptions,
): Promise<ControllerFleet> {
  const { settings, registry, hub, metrics, log, remembering } = options
  const interval = settings.observedIntervalMs ?? 1000
  const host = settings.host ?? hostname()
  const key = fleetKeys(settings.prefix ?? DEFAULT_PREFIX).desired(host)
  const side = remembering && desiredSide({ ...remembering, registry, hub, log, key })
  const up = new Gauge({
    name: 'spp_etcd_up',
    help: "Whether the fleet's etcd answered the controller's last call (1) or not (0)",
    registers: [metrics.registry],
  })
  up.set(0)
  let reached = false
  const link = await createFleetLink({
    ...{ endpoints: settings.endpoints, prefix: settings.prefix, host, log },
    credentials: settings.credentials,
    ...{ url: apiUrl(options.api), version: settings.version, observedIntervalMs: interval },
    ...side?.initial(),
    onUp(isUp) {
      up.set(isUp ? 1 : 0)
      if (!isUp || reached) return // an outage and its end are the link's to log
      reached = true
      log.info({ host, endpoints: settings.endpoints }, 'etcd reached: this host is in the fleet')
    },
    onDesired: (update) =>
      side
        ? side.take(update)
        : log.warn(
            { revision: update.revision },
            'a desired document from etcd is not applied: this controller remembers nothing (--state-dir none)',
          ),
  })

  /** What is remembered changed here (a request's changes are durable): to etcd. */
  const written = () => {
    const document = side?.changed(link)
    if (document) link.writeDesired(document)
  }
  side?.onUnsentMerged(written)
  const stopWriting = remembering?.memory.onRemembered(written)

  // Observed: recomputed at most once per interval after anything changed (the link coalesces
  // its writes the same way, and skips a value equal to the last one written).
  let timer: NodeJS.Timeout | undefined
  let last = -Infinity
  let closed = false
  const changed = () => {
    if (timer || closed) return
    const wait = Math.max(0, last + interval - performance.now())
    timer = setTimeout(() => {
      timer = undefined
      last = performance.now()
      link.publishObserved(observedOf(registry, side?.drift() ?? 0, side?.progress()))
    }, wait)
  }
  side?.onChange(changed)
  const unsubscribe = hub.subscribe({ push: changed, close: () => undefined })
  // Reads change what a view shows without an event (the primary's rings): each command counts.
  const stopHearing = registry.changes(changed)
  // A first status read, so that observed shows the process (shared with any read in flight).
  const onRegistered = (process: ProcessHandle) =>
    void process.ask(statusOf(process.id.kind)).catch(() => undefined)
  registry.on('registered', onRegistered)
  for (const process of registry.processes()) onRegistered(process)
  changed()

  let credentials = settings.credentials
  const fleet: ControllerFleet = {
    link,
    async reloadCredentials() {
      if (!credentials) {
        log.warn('started without etcd credentials (--etcd-ca, --etcd-user...): none to read again')
        return false
      }
      try {
        const next = await readCredentials(credentials.access)
        credentials = next
        const changed = link.reload(next)
        log.info(
          { changed },
          changed
            ? "etcd's credentials read again: a new client with them"
            : "etcd's credentials read again: unchanged",
        )
        return changed
      } catch (error) {
        log.error(
          { reason: (error as Error).message },
          "etcd's credentials not read again: the ones in force are kept",
        )
        return false
      }
    },
    close: () => stop(true),
  }
  /** `revoke`: the alive key goes at once (it is left to its TTL when etcd refused the start). */
  async function stop(revoke: boolean) {
    closed = true
    clearTimeout(timer)
    unsubscribe()
    registry.off('registered', onRegistered)
    stopHearing()
    stopWriting?.()
    side?.close()
    await link.close({ revoke })
  }
  // Waited for once everything is wired: a request answered meanwhile (etcd may say it is
  // reached before) is written like any other.
  try {
    await link.started
  } catch (error) {
    await stop(false)
    throw error
  }
  return fleet
}
