// The controller: process listeners, registry, events, metrics and the REST API, started and stopped together.
import { lookup } from 'node:dns/promises'
import type { Logger } from 'pino'
import { listenForProcesses } from './actors/process-listener.ts'
import { Registry } from './actors/registry.ts'
import { defaultAllowedPeers, peerFilter, type AllowedPeers } from './auth/allow-peers.ts'
import type { Client } from './auth/clients.ts'
import { burstLog } from './burst-log.ts'
import { fdBudget, fdsNeeded, openFilesLimit } from './fd-budget.ts'
import { connectionGuard } from './http/connection-guard.ts'
import { EventHub } from './observe/event-hub.ts'
import { observeProcesses } from './observe/observe-processes.ts'
import { createApp } from './http/app.ts'
import type { NfvStatusWords } from './http/present.ts'
import { startHttpServer, type HttpServerOptions } from './http/server.ts'
import { createMetrics } from './observe/metrics.ts'
import { startControllerFleet, type FleetSettings } from './fleet/controller-link.ts'

export type ControllerOptions = {
  host: string
  primaryPort: number
  secondaryPort: number
  apiPort: number
  commandTimeoutMs: number
  maxReplyBytes: number
  maxUnidentified: number
  /** Commands allowed to wait for one process; more are refused with 503. */
  maxQueue: number
  /** How nfv status is worded: the spec's Running/Idle, or the process's running/idling. */
  nfvStatus: NfvStatusWords
  maxBodyBytes: number
  /** How long an HTTP client may take to send its request. */
  httpRequestTimeoutMs: number
  /** Events kept for clients that reconnect with Last-Event-ID. */
  eventBufferSize: number
  /** An event-stream client this many events behind is dropped. */
  maxPendingEventsPerClient: number
  /** --auth-file's clients: with them, every request needs a token (see src/http/auth.ts). */
  clients?: Client[]
  /** GETs need no token (with `clients`). */
  allowReadAnonymous?: boolean
  /** The API on a unix socket too; its requests are the local administrator's. */
  apiSocket?: { path: string; gid?: number }
  /** Who may connect to the process ports (default: loopback and the bind address's network). */
  allowPeers?: AllowedPeers
  /** REST connections at once (default: from the open-files limit, see src/fd-budget.ts). */
  maxApiConnections?: number
  /** --etcd: the fleet's etcd, this host's name and key prefix (see src/fleet/controller-link.ts). */
  fleet?: FleetSettings
  log: Logger
}

export const DEFAULTS = {
  host: 'localhost',
  primaryPort: 5555,
  secondaryPort: 6666,
  apiPort: 7777,
  commandTimeoutMs: 5000,
  maxReplyBytes: 4 * 1024 * 1024,
  maxUnidentified: 256,
  maxQueue: 64,
  nfvStatus: 'spec',
  maxBodyBytes: 64 * 1024,
  httpRequestTimeoutMs: 10_000,
  eventBufferSize: 1024,
  maxPendingEventsPerClient: 256,
} satisfies Omit<ControllerOptions, 'log'>

/** Starts the process listeners and the REST API; `close` shuts both down gracefully. */
export async function startController(options: ControllerOptions) {
  const { log } = options
  // SPP processes connect to an IPv4 literal, so all three listeners bind the IPv4 address of the
  // name given (as SPP's controller did): `localhost` must not become ::1.
  const { address: host } = await lookup(options.host, { family: 4 })
  const registry = new Registry()
  const hub = new EventHub(options.eventBufferSize)
  const metrics = createMetrics(registry)
  observeProcesses(registry, hub, metrics, log)
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
  const app = createApp({
    registry,
    log,
    maxBodyBytes: options.maxBodyBytes,
    hub,
    metrics,
    events,
    nfvStatus: options.nfvStatus,
    access: { clients: options.clients, allowReadAnonymous: options.allowReadAnonymous },
  })
  const limit = openFilesLimit()
  const maxApiConnections = options.maxApiConnections ?? fdBudget(limit ?? 1024).maxApiConnections
  if (limit !== undefined && fdsNeeded(maxApiConnections, options.maxUnidentified) > limit)
    log.warn(
      { limit, maxApiConnections, maxUnidentified: options.maxUnidentified },
      'the open-files limit is below what these connection limits may need (see README, Security)',
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
    await Promise.all(servers.map((server) => server.stop()))
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
      allowPeers: peers,
      maxApiConnections,
    },
    'controller listening',
  )
  // With --etcd: etcd's client (gRPC) is loaded then, never for a controller without a fleet.
  const fleet =
    options.fleet &&
    (await startControllerFleet({
      ...{ settings: options.fleet, registry, hub, metrics, log },
      api: { host, port: apiPort },
    }))
  if (!options.clients && !host.startsWith('127.'))
    log.warn(
      { host, apiPort },
      'the REST API is open to anyone who reaches this address: no --auth-file (see README, Security)',
    )

  return {
    registry,
    hub,
    app,
    /** The node HTTP server under the app (TCP; the unix socket's is `apiSocketServer`). */
    httpServer: http.server,
    apiSocketServer: servers[1]?.server,
    apiPort,
    primaryPort: processes.primaryPort,
    /** The TCP servers the processes connect to (primary, secondary). */
    processServers: processes.servers,
    secondaryPort: processes.secondaryPort,
    /** Stops accepting, lets requests in flight finish (bounded by the command timeout), then disconnects. */
    async close() {
      await fleet?.close() // its alive key goes at once, not at the lease's end
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
      log.info('controller stopped')
    },
  }
}

export type Controller = Awaited<ReturnType<typeof startController>>
