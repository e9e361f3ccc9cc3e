// The node HTTP servers under the hono app (TCP, and the unix socket): listening, limits, refusals.
import { once } from 'node:events'
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import type { Logger } from 'pino'
import { burstLog } from '../log/burst-log.ts'
import type { Metrics } from '../observe/metrics.ts'
import { preview } from '../protocol/text.ts'
import { listenOnPath } from './api-socket.ts'
import type { ConnectionGuard } from './connection-guard.ts'
import { answerRaw, PARSE_ERRORS, routable, targetRefusal } from './node-answers.ts'
import { idCounter } from './request-id.ts'

export type HttpServerOptions = {
  fetch: (request: Request, env: unknown) => Response | Promise<Response>
  /** TCP, or a unix socket (mode 0660, group `gid`) whose requests are the local administrator's. */
  listen: { host: string; port: number } | { path: string; gid?: number }
  /** How long a client may take to send its request. */
  requestTimeoutMs: number
  /** The connection budget and first-request deadline, shared by all the REST listeners. */
  guard: ConnectionGuard
  log: Logger
  metrics: Metrics
}

/** Idle keep-alive connections are closed after this long (node's default, set to be sure). */
export const KEEP_ALIVE_MS = 5000

/** Serves `fetch`; resolves once listening (rejects otherwise, e.g. a port or a socket in use). */
export async function startHttpServer(options: HttpServerOptions) {
  const { log, metrics } = options
  let stopping = false
  const newId = idCounter()
  /** Logs and counts an answer the app never saw, as the app does its own (`http request`). */
  const refused = (method: string, target: string, status: number, code?: string) => {
    const req = newId()
    metrics.observeHttp(method, 'unmatched', status)
    log[status >= 500 && status !== 501 ? 'warn' : 'info'](
      {
        req,
        ...(method ? { method } : {}),
        ...(target ? { target: preview(target, 80) } : {}),
        status,
        ...(code ? { code } : {}),
      },
      'http request',
    )
    return req
  }
  // While stopping, every answer closes its connection, so that keep-alive clients go as their
  // last request is answered: a Connection header set on node's response before its head is
  // written goes out with the head the app writes. The answers under way when the stop begins
  // are told then; those asked for later, as they begin.
  const answering = new Set<ServerResponse>()
  // Each connection's latest response, for the parser's refusals of what follows on it.
  const responseOf = new WeakMap<Socket, ServerResponse>()
  const closing = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close')
  }
  // A response whose head went out before the stop (an event stream) said keep-alive: its
  // connection is closed as soon as it is done.
  function answered(this: ServerResponse) {
    answering.delete(this)
    if (stopping) server.closeIdleConnections()
  }
  // @hono/node-server cannot build a URL from `*` or `host:port`: it would answer an empty 400.
  const onlyPaths =
    (listener: RequestListener): RequestListener =>
    (req, res) => {
      // Node's one 'request' listener: the guard and the stop hear of each request from here.
      options.guard.request(req, res)
      if (stopping) closing(res)
      answering.add(res)
      responseOf.set(req.socket, res)
      res.on('close', answered)
      if (routable(req.url)) return listener(req, res)
      const [status, text] = targetRefusal(req.method, req.url ?? '')
      const id = refused(req.method ?? '', req.url ?? '', status)
      res.writeHead(status, {
        'Content-Type': 'text/plain; charset=UTF-8',
        'X-Request-Id': id,
        Connection: 'close',
      })
      res.end(`${text}\n`)
    }
  const { listen } = options
  const local = 'path' in listen
  const fetch: HttpServerOptions['fetch'] = local
    ? (request, env) => options.fetch(request, { ...(env as object), local: true })
    : options.fetch
  const server = createAdaptorServer({
    fetch,
    createServer: ((serverOptions: ServerOptions, listener: RequestListener) =>
      createServer(serverOptions, onlyPaths(listener))) as typeof createServer,
    // A client that is slow to send its request, or sends half of it and stops, is cut off.
    serverOptions: {
      headersTimeout: options.requestTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, options.requestTimeoutMs),
      keepAliveTimeout: KEEP_ALIVE_MS,
    },
  }) as Server
  const onClientError = (err: NodeJS.ErrnoException & { reason?: string }, socket: Socket) => {
    const [status, text] = PARSE_ERRORS[err.code ?? ''] ?? [400, 'malformed request']
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      metrics.observeDropped('api', 'timeout')
      // Never a byte: no request to log (a flood of them would be a flood of lines), only counted.
      if (socket.bytesRead === 0 && socket.writable) {
        log.debug({ peer: socket.remoteAddress }, 'REST connection sent no request in time')
        return answerRaw(socket, status, `${text}.`)
      }
    }
    // llhttp's reason is one of its own fixed texts, e.g. `Invalid header value char`.
    const reason = /^[\x20-\x7e]{1,80}$/.test(err.reason ?? '') ? ` (${err.reason})` : ''
    const latest = responseOf.get(socket)
    const response = latest && answering.has(latest) ? latest : undefined
    // Nothing to answer on a socket the client reset, or once a response has begun on it.
    if (!socket.writable || err.code === 'ECONNRESET' || response?.headersSent) {
      log.debug({ code: err.code, status }, 'request refused by the HTTP parser')
      socket.destroy()
    } else if (response) {
      // The request was read up to its body: the app answers it (a client gone mid-body: 499).
      log.debug({ code: err.code, status }, 'request refused by the HTTP parser')
      answerRaw(socket, status, `${text}${reason}.`)
    } else {
      answerRaw(socket, status, `${text}${reason}.`, refused('', '', status, err.code))
    }
  }
  server.on('clientError', onClientError)
  const timedOut = Object.assign(new Error('request not received in time'), {
    code: 'ERR_HTTP_REQUEST_TIMEOUT',
  })
  options.guard.watch(server, (socket) => onClientError(timedOut, socket))
  // A proxy request (CONNECT host:port) is not ours to serve; unanswered, node would just hang up.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const text = 'CONNECT is not supported: this is a REST API, not a proxy'
    answerRaw(socket, 501, text, refused('CONNECT', req.url ?? '', 501))
  })
  if (local) await listenOnPath(server, listen.path, listen.gid)
  else {
    server.listen({ host: listen.host, port: listen.port })
    await once(server, 'listening')
  }
  // After start, an accept failure (EMFILE when out of descriptors) is survived: node would throw.
  // Logged once per burst: when it happens, it happens on every connection that arrives.
  const listenerError = burstLog(log, 'error', 'REST listener error; still serving')
  server.on('error', (err) => listenerError({ err, ...(local ? { socket: listen.path } : {}) }))
  return {
    server,
    port: local ? undefined : (server.address() as AddressInfo).port,
    /** Answers with `Connection: close` from now on, closing connections as they become idle. */
    stop(): Promise<void> {
      stopping = true
      for (const res of answering) closing(res)
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      return closed
    },
  }
}
