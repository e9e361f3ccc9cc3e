// A fetch function served as the controller serves its app: src/http/server.ts (node's parser, the
// connection guard, the refusals) on a loopback port the kernel picks, so that a test's request
// takes the path a client's takes, headers node adds included.
import { Registry } from '../../src/actors/registry.ts'
import { connectionGuard } from '../../src/http/connection-guard.ts'
import { startHttpServer, type HttpServerOptions } from '../../src/http/server.ts'
import { DEFAULTS } from '../../src/controller/options.ts'
import { silentLogger } from '../../src/log/logger.ts'
import { createMetrics, type Metrics } from '../../src/observe/metrics.ts'
import type { Logger } from 'pino'

export type Served = {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string
  /** fetch, with `path` taken from the server's URL. */
  fetch: (path: string, init?: RequestInit) => Promise<Response>
  /** Stops the server: open connections are closed, idle ones at once. */
  close: () => Promise<void>
}

/** Serves `fetch` on 127.0.0.1 with the controller's defaults (its metrics and log if given). */
export async function serveOnLoopback(
  fetch: HttpServerOptions['fetch'],
  { log = silentLogger(), metrics }: { log?: Logger; metrics?: Metrics } = {},
): Promise<Served> {
  const counted = metrics ?? createMetrics(new Registry())
  const guard = connectionGuard({
    maxConnections: 64,
    firstRequestMs: DEFAULTS.httpRequestTimeoutMs,
    log,
    metrics: counted,
  })
  const http = await startHttpServer({
    fetch,
    listen: { host: '127.0.0.1', port: 0 },
    requestTimeoutMs: DEFAULTS.httpRequestTimeoutMs,
    guard,
    log,
    metrics: counted,
  }).catch((error: unknown) => {
    guard.stop()
    throw error
  })
  const url = `http://127.0.0.1:${http.port}`
  return {
    url,
    fetch: (path, init) => globalThis.fetch(url + path, init),
    async close() {
      const stopped = http.stop()
      http.server.closeAllConnections()
      await stopped
      guard.stop()
    },
  }
}

/** Runs `body` with `fetch` served on 127.0.0.1; the server is always closed afterwards. */
export async function withServed(
  fetch: HttpServerOptions['fetch'],
  body: (served: Served) => Promise<void>,
  options?: Parameters<typeof serveOnLoopback>[1],
) {
  const served = await serveOnLoopback(fetch, options)
  try {
    await body(served)
  } finally {
    await served.close()
  }
}
