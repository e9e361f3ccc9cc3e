// Success answers: JSON serialised once per shared reply, and 204 with nothing at all.
import type { OutgoingHttpHeaders } from 'node:http'
import type { HttpBindings } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Context, MiddlewareHandler } from 'hono'

// Coalesced requests share one decoded reply object: it is serialised once for all of them.
const serialised = new WeakMap<object, string>()

/** A 200 JSON answer, serialising each reply object only once. */
export function json(c: Context, value: object): Response {
  let text = serialised.get(value)
  if (text === undefined) serialised.set(value, (text = JSON.stringify(value)))
  return c.body(text, 200, { 'Content-Type': 'application/json' })
}

/** A 204: no body (and, served by node, no Content-Type or Content-Length: `bodilessHeads`). */
export const noContent = (c: Context): Response => c.body(null, 204)

/**
 * The one place a head is written outside hono: a 204's or 304's, with node's own response
 * (@hono/node-server's bindings, and its RESPONSE_ALREADY_SENT to say it is done). Such an answer
 * has no body, so no Content-Type or Content-Length either, yet @hono/node-server gives every
 * answer without a Content-Type `text/plain` (and a string body its length), and node sends both
 * even with a 204. Every other header hono holds goes out as it is. Without node under the app
 * (app.request), hono's own Response is right as it is.
 */
export function bodilessHeads(): MiddlewareHandler {
  return async function bodilessHeads(c, next) {
    await next()
    const { status } = c.res
    if (status !== 204 && status !== 304) return
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
    if (!outgoing || outgoing.headersSent) return
    const headers: OutgoingHttpHeaders = {}
    for (const [name, value] of c.res.headers)
      if (name !== 'content-type' && name !== 'content-length') headers[name] = value
    outgoing.writeHead(status, headers).end()
    c.res = RESPONSE_ALREADY_SENT
  }
}
