// What node's HTTP server answers below hono's reach: parser refusals, targets that are not paths.
import type { Socket } from 'node:net'
import { preview } from '../protocol/text.ts'

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
