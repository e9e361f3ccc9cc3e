// Request ids: the client's own X-Request-Id when it is safe to echo, else a cheap unique one.

/** The ids a client may choose: a short token we can put in a header and a log line as is. */
const SAFE_ID = /^[\w.:-]{1,64}$/

/**
 * Request ids: the client's X-Request-Id when it is a short, safe token (so a caller can follow its
 * own id through our logs), else a per-run prefix and a counter (cheaper than a UUID per request).
 */
export function requestIdSource() {
  const run = Math.floor(Math.random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')
  let count = 0
  return (given: string | undefined) =>
    given !== undefined && SAFE_ID.test(given) ? given : `${run}-${(++count).toString(36)}`
}
