// A controller's side of the fleet (--etcd): its link, its observed key kept current, spp_etcd_up.
import { hostname } from 'node:os'
import type { Logger } from 'pino'
import { Gauge } from 'prom-client'
import { askStatus } from '../actors/ask.ts'
import type { Registry } from '../actors/registry.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { Metrics } from '../observe/metrics.ts'
import { createFleetLink, type DesiredUpdate, type FleetLink } from './link.ts'
import { observedOf } from './observed-of.ts'

/** The flags: `--etcd`, `--host-name`, `--etcd-prefix`, and the version the alive key tells. */
export type FleetSettings = {
  endpoints: string[]
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
}

/** The controller's fleet link; `close` revokes its alive key. */
export type ControllerFleet = {
  link: FleetLink
  close(): Promise<void>
}

/** The API's URL as other machines reach it. */
export const apiUrl = ({ host, port }: ControllerFleetOptions['api']) =>
  `http://${host === '0.0.0.0' ? hostname() : host}:${port}/`

/**
 * Connects the controller to etcd: never waits for it (a link to an etcd that does not answer is
 * made at once), and nothing on the request path ever calls it.
 */
export async function startControllerFleet(
  options: ControllerFleetOptions,
): Promise<ControllerFleet> {
  const { settings, registry, hub, metrics, log } = options
  const interval = settings.observedIntervalMs ?? 1000
  const up = new Gauge({
    name: 'spp_etcd_up',
    help: "Whether the fleet's etcd answered the controller's last call (1) or not (0)",
    registers: [metrics.registry],
  })
  up.set(0)
  const host = settings.host ?? hostname()
  let reached = false
  const link = await createFleetLink({
    endpoints: settings.endpoints,
    prefix: settings.prefix,
    host,
    url: apiUrl(options.api),
    version: settings.version,
    log,
    observedIntervalMs: interval,
    onUp(isUp) {
      up.set(isUp ? 1 : 0)
      if (!isUp || reached) return // an outage and its end are the link's to log
      reached = true
      log.info({ host, endpoints: settings.endpoints }, 'etcd reached: this host is in the fleet')
    },
    onDesired: (update: DesiredUpdate) =>
      log.warn(
        { revision: update.revision },
        'a desired document from etcd is not applied: this controller remembers nothing',
      ),
  })

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
      link.publishObserved(observedOf(registry, 0, undefined))
    }, wait)
  }
  const unsubscribe = hub.subscribe({ push: changed, close: () => undefined })
  // Reads change what a view shows without an event (the primary's rings): each command counts.
  const onRegistered = (entry: Parameters<Registry['claim']>[0]) => {
    entry.connection.on('commandDone', changed)
    // A first status read, so that observed shows the process (shared with any read in flight).
    askStatus(entry.connection, entry.kind).catch(() => undefined)
  }
  registry.on('registered', onRegistered)
  for (const entry of registry.entries()) onRegistered(entry)
  changed()

  return {
    link,
    async close() {
      closed = true
      clearTimeout(timer)
      unsubscribe()
      registry.off('registered', onRegistered)
      await link.close()
    },
  }
}
