// The node HTTP server under the hono app: what node and @hono/node-server do below hono's reach.
import { once } from 'node:events'
import { IncomingMessage, ServerResponse, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { serve } from '@hono/node-server'
import type { Logger } from 'pino'
import type { Metrics } from '../observe/metrics.ts'

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
function answerRaw(socket: Socket, status: number, text: string) {
  const body = `${text}\n`
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\nContent-Type: text/plain; charset=UTF-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** Serves `fetch` on host:port; resolves once listening (rejects, e.g. port in use, otherwise). */
export async function startHttpServer(options: HttpServerOptions) {
  const { log, metrics } = options
  let stopping = false
  const server = serve({
    fetch: options.fetch,
    hostname: options.host,
    port: options.port,
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
    log.debug({ code: err.code, status }, 'request refused by the HTTP parser')
    // Nothing to answer on a socket the client reset, or once a response has begun on it.
    if (!socket.writable || err.code === 'ECONNRESET' || response?.headersSent) socket.destroy()
    else {
      metrics.observeHttp('', 'unparsed', status)
      answerRaw(socket, status, `${text}${reason}.`)
    }
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
