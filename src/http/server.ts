// The node HTTP server under the hono app: what node and @hono/node-server do below hono's reach.
import { once } from 'node:events'
import {
  createServer,
  IncomingMessage,
  ServerResponse,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { serve } from '@hono/node-server'
import type { Logger } from 'pino'
import type { Metrics } from '../observe/metrics.ts'
import { preview } from '../protocol/text.ts'
import { requestIdSource } from './request-id.ts'

export type HttpServerOptions = {
  fetch: (request: Request, env: unknown) => Response | Promise<Response>
  host: string
  port: number
  /** How long a client may take to send its request. */
  requestTimeoutMs: number
  log: Logger
  metrics: Metrics
}

/**
 * The responses of one server, adjusted as their head is written. A 204 (or 304) carries no body,
 * so no Content-Type either (@hono/node-server adds `text/plain` to every response without one,
 * and node sends it even for a 204). While stopping, every answer closes its connection, so that
 * keep-alive clients go as their last request is answered.
 */
function responseClass(stopping: () => boolean) {
  return class Response<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {
    override writeHead(status: number, ...rest: unknown[]): this {
      const last = rest.at(-1)
      const headers =
        last && typeof last === 'object' && !Array.isArray(last)
          ? (last as Record<string, unknown>)
          : {}
      const bodiless = status === 204 || status === 304
      for (const key of Object.keys(headers)) {
        const name = key.toLowerCase()
        if ((bodiless && name === 'content-type') || (stopping() && name === 'connection'))
          delete headers[key]
      }
      if (bodiless) this.removeHeader('content-type')
      if (stopping()) this.setHeader('Connection', 'close')
      return super.writeHead(status, ...(rest as [string | undefined]))
    }
  }
}

/** Why node's parser refused a request, as status and text (node's own answer is an empty 400). */
const PARSE_ERRORS: Record<string, [number, string]> = {
  HPE_INVALID_METHOD: [501, 'unknown HTTP method'],
  HPE_HEADER_OVERFLOW: [431, 'request headers too large'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'invalid Content-Length header'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'duplicate or conflicting Content-Length header'],
  HPE_INVALID_TRANSFER_ENCODING: [400, 'invalid Transfer-Encoding header'],
  HPE_INVALID_CHUNK_SIZE: [400, 'invalid chunk size in a chunked body'],
  HPE_INVALID_HEADER_TOKEN: [400, 'invalid character in a header'],
  HPE_INVALID_URL: [400, 'invalid request target'],
  HPE_INVALID_VERSION: [400, 'malformed request line (HTTP version)'],
  HPE_INVALID_CONSTANT: [400, 'malformed request line'],
  HPE_CR_EXPECTED: [400, 'malformed request: CR expected'],
  HPE_LF_EXPECTED: [400, 'malformed request: LF expected'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request not received in time'],
}
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
}

/** A text/plain answer written straight to the socket (the request never reached the app). */
function answerRaw(socket: Socket, status: number, text: string, id?: string) {
  const body = `${text}\n`
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\nContent-Type: text/plain; charset=UTF-8\r\n` +
      `${id ? `X-Request-Id: ${id}\r\n` : ''}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** A target the app can route: a path (origin-form), or a whole http URL (absolute-form). */
const routable = (target: string | undefined) =>
  target !== undefined && (target.startsWith('/') || /^https?:\/\//i.test(target))

/** Why a request whose target is not a path is refused (asterisk- and authority-form). */
const targetRefusal = (method: string | undefined, target: string): [number, string] =>
  method === 'OPTIONS' && target === '*'
    ? [501, 'OPTIONS * (the options of the whole server) is not supported']
    : [400, `the request target must be a path starting with /, got ${preview(target, 80)}`]

/** Serves `fetch` on host:port; resolves once listening (rejects, e.g. port in use, otherwise). */
export async function startHttpServer(options: HttpServerOptions) {
  const { log, metrics } = options
  let stopping = false
  const requestIds = requestIdSource()
  /** Logs and counts an answer the app never saw, as the app does its own (`http request`). */
  const refused = (method: string, target: string, status: number, code?: string) => {
    const req = requestIds(undefined)
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
  // @hono/node-server cannot build a URL from `*` or `host:port`: it would answer an empty 400.
  const onlyPaths =
    (listener: RequestListener): RequestListener =>
    (req, res) => {
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
  const server = serve({
    fetch: options.fetch,
    hostname: options.host,
    port: options.port,
    createServer: ((serverOptions: ServerOptions, listener: RequestListener) =>
      createServer(serverOptions, onlyPaths(listener))) as typeof createServer,
    // A client that is slow to send its request, or sends half of it and stops, is cut off.
    serverOptions: {
      headersTimeout: options.requestTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, options.requestTimeoutMs),
      ServerResponse: responseClass(() => stopping),
    },
  }) as Server
  server.on('clientError', (err: NodeJS.ErrnoException & { reason?: string }, socket: Socket) => {
    const [status, text] = PARSE_ERRORS[err.code ?? ''] ?? [400, 'malformed request']
    // llhttp's reason is one of its own fixed texts, e.g. `Invalid header value char`.
    const reason = /^[\x20-\x7e]{1,80}$/.test(err.reason ?? '') ? ` (${err.reason})` : ''
    const response = (socket as { _httpMessage?: ServerResponse })._httpMessage
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
  })
  // A proxy request (CONNECT host:port) is not ours to serve; unanswered, node would just hang up.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const text = 'CONNECT is not supported: this is a REST API, not a proxy'
    answerRaw(socket, 501, text, refused('CONNECT', req.url ?? '', 501))
  })
  // A response whose head went out before the stop (an event stream) said keep-alive: its
  // connection is closed as soon as it is done.
  const afterResponse = () => stopping && server.closeIdleConnections()
  server.on('request', (_req: IncomingMessage, res: ServerResponse) =>
    res.once('finish', afterResponse),
  )
  await once(server, 'listening')
  // After start, an accept failure (EMFILE when out of descriptors) is survived: node would throw.
  server.on('error', (err) => log.error({ err }, 'REST listener error; still serving'))
  return {
    server,
    port: (server.address() as AddressInfo).port,
    /** Answers with `Connection: close` from now on, closing connections as they become idle. */
    stop(): Promise<void> {
      stopping = true
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      return closed
    },
  }
}
