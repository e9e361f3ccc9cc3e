// The controller: process listeners, registry, events, metrics and the REST API, started and stopped together.
import { lookup } from 'node:dns/promises'
import type { Logger } from 'pino'
import { listenForProcesses } from './actors/process-listener.ts'
import { Registry } from './actors/registry.ts'
import { EventHub } from './observe/event-hub.ts'
import { observeProcesses } from './observe/observe-processes.ts'
import { createApp } from './http/app.ts'
import type { NfvStatusWords } from './http/present.ts'
import { startHttpServer } from './http/server.ts'
import { createMetrics } from './observe/metrics.ts'

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
  const processes = await listenForProcesses({ ...options, host, registry })
  const events = { maxPendingPerClient: options.maxPendingEventsPerClient, heartbeatMs: 15_000 }
  const app = createApp({
    registry,
    log,
    maxBodyBytes: options.maxBodyBytes,
    hub,
    metrics,
    events,
    nfvStatus: options.nfvStatus,
  })
  const http = await startHttpServer({
    fetch: app.fetch,
    host,
    port: options.apiPort,
    requestTimeoutMs: options.httpRequestTimeoutMs,
    log,
    metrics,
  }).catch((error: unknown) => {
    processes.close(true)
    throw error
  })
  const apiPort = http.port
  log.info(
    { host, primaryPort: processes.primaryPort, secondaryPort: processes.secondaryPort, apiPort },
    'controller listening',
  )

  return {
    registry,
    hub,
    app,
    /** The node HTTP server under the app. */
    httpServer: http.server,
    apiPort,
    primaryPort: processes.primaryPort,
    /** The TCP servers the processes connect to (primary, secondary). */
    processServers: processes.servers,
    secondaryPort: processes.secondaryPort,
    /** Stops accepting, lets requests in flight finish (bounded by the command timeout), then disconnects. */
    async close() {
      processes.close(false)
      hub.close() // event streams would otherwise keep their connections open
      const drained = http.stop()
      const grace = setTimeout(
        () => http.server.closeAllConnections(),
        options.commandTimeoutMs + 1000,
      )
      await drained
      clearTimeout(grace)
      processes.close(true)
      log.info('controller stopped')
    },
  }
}

export type Controller = Awaited<ReturnType<typeof startController>>
