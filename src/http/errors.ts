// The one table from error code to HTTP status, and the handlers that answer errors as text.
import type { ErrorHandler, NotFoundHandler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ControllerError, type ErrorCode } from '../protocol/errors.ts'
import { preview } from '../protocol/text.ts'

/**
 * Every failure's status: the spec promises 400, 404 and 500 for requests that reach a process;
 * 413 guards the body; 499 (never seen by the client, who left) counts the client's own outcome.
 */
export const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  INVALID_REQUEST: 400,
  TOKEN_MISSING: 401,
  TOKEN_UNKNOWN: 401,
  SCOPE_MISSING: 403,
  COMMAND_REJECTED: 400,
  PROCESS_NOT_FOUND: 404,
  NOT_IN_RELEASE: 405,
  APPLY_RUNNING: 409,
  CONFIRMATION_PENDING: 409,
  NOTHING_TO_CONFIRM: 409,
  TOPOLOGY_CHANGED: 412,
  BODY_TOO_LARGE: 413,
  PLAN_REFUSED: 422,
  NOTHING_REMEMBERED: 404,
  REVISION_NOT_FOUND: 404,
  NOT_IN_FLEET: 404,
  CLIENT_GONE: 499 as ContentfulStatusCode, // nginx's code for it: counted as a client outcome
  REPLY_TIMEOUT: 500,
  PROCESS_UNRESPONSIVE: 500,
  CONNECTION_CLOSED: 500,
  BAD_REPLY: 500,
  INTERNAL: 500,
  COMMIT_FAILED: 500,
  QUEUE_FULL: 503,
  PROCESS_UNAVAILABLE: 503,
}

/**
 * Headers some errors need: a full queue says when to try again; a route the process's release
 * lacks is a 405 whose (empty) Allow says the resource allows no method for this process; a refused
 * token says why in RFC 6750's words.
 */
const HEADERS: Partial<Record<ErrorCode, Record<string, string>>> = {
  TOKEN_MISSING: { 'WWW-Authenticate': 'Bearer realm="spp-ctl"' },
  TOKEN_UNKNOWN: { 'WWW-Authenticate': 'Bearer realm="spp-ctl", error="invalid_token"' },
  SCOPE_MISSING: { 'WWW-Authenticate': 'Bearer realm="spp-ctl", error="insufficient_scope"' },
  QUEUE_FULL: { 'Retry-After': '1' },
  NOT_IN_RELEASE: { Allow: '' },
}

/**
 * A text/plain body: the text and a line end, so that curl's output ends its line. A text SPP's
 * controller answered (`sec_id 1 not found.`) stays its first line, word for word.
 */
export const textBody = (text: string) => `${text}\n`

/**
 * Answers every error as text/plain, its code in `X-Error-Code` (a topology apply reports a failed
 * step's); unexpected ones are logged and never shown.
 */
export const onError =
  (logError: (err: Error) => void): ErrorHandler =>
  (err, c) => {
    if (err instanceof ControllerError) {
      const headers = { ...HEADERS[err.code], 'X-Error-Code': err.code }
      return c.text(textBody(err.message), STATUS[err.code], headers)
    }
    logError(err)
    return c.text(textBody('internal error in the controller'), 500)
  }

export const notFound: NotFoundHandler = (c) =>
  c.text(textBody(`Not found: ${preview(c.req.path, 120)}`), 404)
