// Request ids: hono's request-id middleware, with ids a reader can follow through our logs.
import type { Context, MiddlewareHandler } from 'hono'
import { requestId } from 'hono/request-id'
import { setHeader } from './json.ts'
import { requestHeader } from './validate.ts'

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
 * hono's request-id middleware: each request's id in `c.get('requestId')`, which everything after
 * it reads, and the answer's X-Request-Id. The client's own X-Request-Id when it is a short, safe
 * token (so that a caller can follow its id through our logs; `.` and `:` too, as in
 * `job-7.step:2`, as our own steps' ids are written), else one of ours.
 *
 * The header is read once, here, from node's own headers, and the answer's is set on node's
 * response (requestHeader, setHeader): hono's own reading and setting (its `headerName`) would
 * build an undici `Headers` for the request's headers and another for the answer's, for one value
 * each.
 */
export function requestIds(): MiddlewareHandler {
  const ours = idCounter()
  return requestId({
    headerName: '',
    generator(c: Context) {
      const given = requestHeader(c, 'x-request-id')
      const id = given !== undefined && SAFE_ID.test(given) ? given : ours()
      setHeader(c, 'X-Request-Id', id)
      return id
    },
  })
}
