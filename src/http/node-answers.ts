// What node's HTTP server answers below hono's reach: response heads, parser refusals, raw answers.
import { IncomingMessage, ServerResponse, type OutgoingHttpHeaders } from 'node:http'
import type { Socket } from 'node:net'
import { preview } from '../protocol/text.ts'

/** Marks a response that writes its `requestId` into its head (one of `responseClass`'s). */
export const CARRIES_ID = Symbol('carries X-Request-Id')

/** A response of `responseClass`, or any other. */
export type IdCarrier = ServerResponse & { requestId?: string; [CARRIES_ID]?: true }

/**
 * The responses of one server, adjusted as their head is written. Each carries its request's id
 * (`requestId`, set by the app), added to the head here: set earlier with `setHeader`, it would
 * send node's `writeHead` down its slow path of one `setHeader` per header. A 204 (or 304) carries
 * no body, so no Content-Type or Content-Length either (@hono/node-server adds `text/plain` to every
 * response without one, and the length of a string body, and node sends both even for a 204).
 * While stopping, every answer closes its connection, so that keep-alive clients go as their last
 * request is answered.
 */
export function responseClass(stopping: () => boolean) {
  return class Response<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {
    /** The X-Request-Id of this response's head. */
    declare requestId: string | undefined
    declare readonly [CARRIES_ID]: true
    static {
      Object.defineProperty(this.prototype, CARRIES_ID, { value: true })
    }

    override writeHead(status: number, reason?: unknown, given?: unknown): this {
      const named = typeof reason === 'string'
      const raw = (named ? given : reason) as OutgoingHttpHeaders | unknown[] | undefined
      let headers: OutgoingHttpHeaders | undefined
      // Raw [name, value, ...] pairs (hono sends none) are set one by one, as node would.
      if (Array.isArray(raw))
        for (let i = 0; i < raw.length; i += 2) this.setHeader(String(raw[i]), raw[i + 1] as string)
      else headers = raw
      const bodiless = status === 204 || status === 304
      const closing = stopping()
      if (headers && (bodiless || closing))
        for (const key of Object.keys(headers)) {
          const name = key.toLowerCase()
          if (
            (bodiless && (name === 'content-type' || name === 'content-length')) ||
            (closing && name === 'connection')
          )
            delete headers[key]
        }
      if (this.requestId !== undefined) (headers ??= {})['X-Request-Id'] = this.requestId
      if (bodiless) this.removeHeader('content-type')
      if (closing) this.setHeader('Connection', 'close')
      return named ? super.writeHead(status, reason, headers) : super.writeHead(status, headers)
    }
  }
}

/** Why node's parser refused a request, as status and text (node's own answer is an empty 400). */
export const PARSE_ERRORS: Record<string, [number, string]> = {
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

/**
 * A text/plain answer written straight to the socket (the request never reached the app), then
 * the socket closed once it is written. Only ending it would wait for the client to close its
 * side, and one that never reads holds the descriptor for good (this starved the controller).
 */
export function answerRaw(socket: Socket, status: number, text: string, id?: string) {
  const body = `${text}\n`
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\nContent-Type: text/plain; charset=UTF-8\r\n` +
      `${id ? `X-Request-Id: ${id}\r\n` : ''}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
  socket.destroySoon()
}

/** A target the app can route: a path (origin-form), or a whole http URL (absolute-form). */
export const routable = (target: string | undefined) =>
  target !== undefined && (target.startsWith('/') || /^https?:\/\//i.test(target))

/** Why a request whose target is not a path is refused (asterisk- and authority-form). */
export const targetRefusal = (method: string | undefined, target: string): [number, string] =>
  method === 'OPTIONS' && target === '*'
    ? [501, 'OPTIONS * (the options of the whole server) is not supported']
    : [400, `the request target must be a path starting with /, got ${preview(target, 80)}`]
