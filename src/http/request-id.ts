// Request ids: hono's request-id middleware, with ids a reader can follow through our logs.
import type { MiddlewareHandler } from 'hono'
import { requestId } from 'hono/request-id'

/** The ids a client may choose: a short token we can put in a header and a log line as is. */
const SAFE_ID = /^[\w.:=-]{1,64}$/

/** Ids of our own: a per-run prefix and a counter (shorter, and cheaper, than a UUID each). */
export function idCounter(): () => string {
  const run = Math.floor(Math.random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')
  let count = 0
  return () => `${run}-${(++count).toString(36)}`
}

/**
 * hono's request-id middleware: each request's id in `c.get('requestId')` and the answer's
 * X-Request-Id. The client's own X-Request-Id when it is a short, safe token (so that a caller
 * can follow its id through our logs), else one of ours. hono takes a client's id of up to
 * `limitLength` letters, digits, `_`, `-` and `=`, and asks the generator for any other; the
 * generator also takes one with `.` or `:` (`job-7.step:2`), as our own steps' ids are written.
 */
export function requestIds(): MiddlewareHandler {
  const ours = idCounter()
  return requestId({
    limitLength: 64,
    generator: (c) => {
      const given = c.req.header('X-Request-Id')
      return given !== undefined && SAFE_ID.test(given) ? given : ours()
    },
  })
}
