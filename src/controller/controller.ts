// The controller: process listeners, registry, events, metrics and the REST API, started and stopped together.
import { lookup } from 'node:dns/promises'
import { listenForProcesses } from '../actors/process-listener.ts'
import { Registry } from '../actors/registry.ts'
import { defaultAllowedPeers, peerFilter } from '../auth/allow-peers.ts'
import type { Client } from '../auth/clients.ts'
import { burstLog } from '../log/burst-log.ts'
import { fdBudget, fdsNeeded, openFilesLimit } from './fd-budget.ts'
import { connectionGuard } from '../http/connection-guard.ts'
import { EventHub } from '../observe/event-hub.ts'
import { observeProcesses } from '../observe/observe-processes.ts'
import { createApp } from '../http/app.ts'
import { startServices } from './services.ts'
import { startHttpServer, type HttpServerOptions } from '../http/server.ts'
import { driftMetrics } from '../observe/drift-metrics.ts'
import { dropMetrics } from '../observe/drop-metrics.ts'
import { createMetrics } from '../observe/metrics.ts'
import { processUp } from '../observe/process-up.ts'
import { queueLimit } from '../observe/queue-limit.ts'
import {
  fleetStatusOf,
  startControllerFleet,
  type ControllerFleet,
} from '../fleet/controller-link.ts'
import { DEFAULT_JOURNAL_KEEP_DAYS, openStore } from '../store/store.ts'
import { driftSamples } from '../remember/drift.ts'
import { dropPoints } from '../topology/drop-points.ts'
import { entriesOf, idOfKey } from '../topology/process-config.ts'

import type { ControllerOptions } from './options.ts'

export { DEFAULTS, type ControllerOptions } from './options.ts'

/** Starts the process listeners and the REST API; `close` shuts both down gracefully. */
export async function startController(options: ControllerOptions) {
  const { log } = options
  // SPP processes connect to an IPv4 literal, so all three listeners bind the IPv4 address of the
  // name given (as SPP's controller did): `localhost` must not become ::1.
  const { address: host } = await lookup(options.host, { family: 4 })
  // First: a state directory another controller holds stops us before any port is taken.
  const store = options.stateDir === undefined ? undefined : openState(options)
  const registry = new Registry()
  const hub = new EventHub(options.eventBufferSize)
  const metrics = createMetrics(registry)
  observeProcesses(registry, hub, metrics)
  const remembered = () => (store ? entriesOf(store.remembered()).map(([key]) => idOfKey(key)) : [])
  processUp(registry, metrics.registry, remembered)
  queueLimit(metrics.registry, options.maxQueue)
  const drift =
    store && driftMetrics(metrics.registry, () => driftSamples(registry, store.remembered()))
  const peers = options.allowPeers ?? defaultAllowedPeers(host)
  const allowed = peerFilter(peers)
  const logOutsider = burstLog(log, 'warn', 'process connection refused: peer not in --allow-peers')
  const processes = await listenForProcesses({
    ...options,
    host,
    registry,
    admit(socket, port) {
      if (allowed(socket.remoteAddress)) return true
      metrics.observeDropped(port, 'peer')
      logOutsider({ peer: `${socket.remoteAddress}:${socket.remotePort}`, port })
      return false
    },
  })
  const events = { maxPendingPerClient: options.maxPendingEventsPerClient, heartbeatMs: 15_000 }
  // With --etcd, the API tells the link's state from the start (connecting until etcd answers).
  const fleetStatus = options.fleet && fleetStatusOf(options.fleet, hub)
  // The clients in force: replaced whole when the auth file is read again (reloadClients).
  let clients = options.clients
  const services = startServices({
    registry,
    log,
    hub,
    metrics,
    statusReads: { maxAgeMs: options.statusMaxAgeMs, now: options.statusClock },
    remember: store && {
      store,
      mode: options.restore ?? 'on',
      onRestore: (outcome) => drift?.observeRestore(outcome),
      arrivalMs: options.commandTimeoutMs, // a connection identifies within it, or is dropped
    },
    clock: options.clock,
    ratesTimer: options.ratesTimer,
  })
  dropMetrics(metrics.registry, () => dropPoints(services.paths.current()))
  const app = createApp({
    registry,
    log,
    maxBodyBytes: options.maxBodyBytes,
    hub,
    metrics,
    events,
    nfvStatus: options.nfvStatus,
    access: {
      clients: clients && (() => clients!),
      allowReadAnonymous: options.allowReadAnonymous,
    },
    services,
    journal: store,
    sysfsCpu: options.sysfsCpu,
    fleet: fleetStatus,
  })
  const { memory, restorer } = services
  const limit = openFilesLimit()
  const maxApiConnections = options.maxApiConnections ?? fdBudget(limit ?? 1024).maxApiConnections
  if (limit !== undefined && fdsNeeded(maxApiConnections, options.maxUnidentified) > limit)
    log.warn(
      { limit, maxApiConnections, maxUnidentified: options.maxUnidentified },
      'the open-files limit is below what these connection limits may need (see docs/security.md)',
    )
  const guard = connectionGuard({
    maxConnections: maxApiConnections,
    firstRequestMs: options.httpRequestTimeoutMs,
    log,
    metrics,
  })
  const serve = (listen: HttpServerOptions['listen']) =>
    startHttpServer({
      fetch: app.fetch,
      listen,
      requestTimeoutMs: options.httpRequestTimeoutMs,
      guard,
      log,
      metrics,
    })
  const servers: Awaited<ReturnType<typeof serve>>[] = []
  try {
    servers.push(await serve({ host, port: options.apiPort }))
    if (options.apiSocket) servers.push(await serve(options.apiSocket))
  } catch (error) {
    processes.close(true)
    guard.stop()
    services.confirmations.close()
    await Promise.all(servers.map((server) => server.stop()))
    await store?.close()
    throw error
  }
  const http = servers[0]!
  const apiPort = http.port!
  log.info(
    {
      host,
      primaryPort: processes.primaryPort,
      secondaryPort: processes.secondaryPort,
      apiPort,
      ...(options.apiSocket ? { apiSocket: options.apiSocket.path } : {}),
      stateDir: options.stateDir ?? 'none',
      allowPeers: peers,
      maxApiConnections,
    },
    'controller listening',
  )
  let fleet: ControllerFleet | undefined
  /** Stops accepting, lets requests in flight finish (bounded by the command timeout), then disconnects. */
  async function close() {
    await fleet?.close() // its alive key goes at once, not at the lease's end
    services.confirmations.close() // one pending is undone by the next start
    services.paths.close()
    processes.close(false)
    hub.close() // event streams would otherwise keep their connections open
    const drained = Promise.all(servers.map((server) => server.stop()))
    const grace = setTimeout(() => {
      for (const { server } of servers) server.closeAllConnections()
    }, options.commandTimeoutMs + 1000)
    await drained
    clearTimeout(grace)
    guard.stop()
    processes.close(true)
    // Commits what is queued and releases the state directory. What it cannot save was never
    // acknowledged (every 2xx waited for its sync), so the controller still stops as asked.
    await store?.close().catch((err: unknown) => log.error({ err }, 'state directory not saved'))
    log.info('controller stopped')
  }
  // With --etcd: etcd's client (gRPC) is loaded then, never for a controller without a fleet. An
  // etcd that refuses this host (TLS, authentication, a permission) stops the start; one that
  // does not answer is tried again while the controller serves.
  if (options.fleet)
    try {
      fleet = await startControllerFleet({
        ...{ settings: options.fleet, registry, hub, metrics, log },
        api: { host, port: apiPort },
        status: fleetStatus,
        // The fleet takes what etcd desires into memory and has it restored.
        remembering: memory && restorer && { memory, restorer, mode: options.restore ?? 'on' },
      })
    } catch (error) {
      await close()
      throw error
    }
  if (!options.clients && !host.startsWith('127.'))
    log.warn(
      { host, apiPort },
      'the REST API is open to anyone who reaches this address: no --auth-file (see docs/security.md)',
    )

  return {
    registry,
    hub,
    app,
    /** What it remembers, its applies and restores (src/controller/services.ts). */
    services,
    /** The node HTTP server under the app (TCP; the unix socket's is `apiSocketServer`). */
    httpServer: http.server,
    apiSocketServer: servers[1]?.server,
    apiPort,
    primaryPort: processes.primaryPort,
    /** The TCP servers the processes connect to (primary, secondary). */
    processServers: processes.servers,
    secondaryPort: processes.secondaryPort,
    /**
     * Reads the auth file again (SIGHUP) with `read`: its clients are in force for the next
     * request. A file that cannot be used keeps the clients in force, and says why. Logged and
     * counted either way; resolves whether the file's clients are now in force.
     */
    reloadClients(file: string, read: (file: string) => Client[]): boolean {
      if (!clients) {
        log.warn({ file }, 'started without --auth-file: no clients to read again')
        return false
      }
      try {
        const next = read(file)
        clients = next
        metrics.observeAuthReload('done')
        log.info({ file, clients: next.map((c) => c.name) }, 'auth file read again')
        return true
      } catch (err) {
        metrics.observeAuthReload('failed')
        const names = clients.map((c) => c.name)
        log.error(
          { file, reason: (err as Error).message, clients: names },
          'auth file not read again: the clients in force are kept',
        )
        return false
      }
    },
    /**
     * Reads etcd's credentials again from their files (SIGHUP): a new client with them when they
     * changed; the ones in force when a file cannot be used. Resolves whether new ones are in force.
     */
    reloadEtcdCredentials: async () => (await fleet?.reloadCredentials()) ?? false,
    close,
  }
}

export type Controller = Awaited<ReturnType<typeof startController>>

const DAY_MS = 86_400_000
function openState({ stateDir, journalKeepDays, log }: ControllerOptions) {
  return openStore(stateDir!, {
    journalKeepMs: (journalKeepDays ?? DEFAULT_JOURNAL_KEEP_DAYS) * DAY_MS,
    onPrune: (removed) => log.info({ removed }, 'old journal entries removed'),
    onBroken: (err) => log.error({ err }, 'the state directory can no longer save changes'),
  })
}
