// Success answers: JSON serialised once per shared reply, 204 and 304 with nothing at all, and
// the headers an answer carries.
import type { HttpBindings } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Context, MiddlewareHandler } from 'hono'

/**
 * Sets a header of the answer. Served by node, on node's own response, which sends it with the
 * head whoever writes it: held by hono (c.header), it would take an undici `Headers`, which the
 * answer is then made from. The routes and middleware set headers here, never with c.header
 * (eslint.config.js): a 204 or 304 goes out with what node's response holds, and nothing that
 * hono holds (bodilessHeads). Through hono without node (app.request).
 */
export function setHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
  if (outgoing) outgoing.setHeader(name, value)
  // eslint-disable-next-line no-restricted-syntax -- the one way in, without node under the app
  else c.header(name, value)
}

// Coalesced requests share one decoded reply object: it is serialised once for all of them.
const serialised = new WeakMap<object, string>()

/** A 200 JSON answer, serialising each reply object only once. */
export function json(c: Context, value: object): Response {
  let text = serialised.get(value)
  if (text === undefined) serialised.set(value, (text = JSON.stringify(value)))
  return c.body(text, 200, { 'Content-Type': 'application/json' })
}

// Served by node, a 204 or 304 is made with an empty string rather than null: @hono/node-server
// keeps an answer with a string body in its light form, whose status and headers are read as they
// were given, whereas one with a null body becomes a whole fetch Response the first time its
// status is read (hono's methodNotAllowed reads every answer's). The string is never sent:
// `bodilessHeads` writes the head alone. Without node (app.request) the answer is a fetch Response,
// which may have no body at these statuses. So nothing may make a whole Response of one served by
// node (read its body, clone it, or call c.header() after it is made): that throws at 204 or 304.
const bodiless = (c: Context, status: 204 | 304): Response =>
  c.newResponse((c.env as Partial<HttpBindings> | undefined)?.outgoing ? '' : null, status)

/** A 204: no body (and, served by node, no Content-Type or Content-Length: `bodilessHeads`). */
export const noContent = (c: Context): Response => bodiless(c, 204)

/** A 304 to a conditional GET whose entity tag still holds: no body, as a 204. */
export const notModified = (c: Context): Response => bodiless(c, 304)

/**
 * A head written outside hono (as the event stream's is, src/http/event-stream.ts): a 204's or
 * 304's, with node's own response (@hono/node-server's bindings, and its RESPONSE_ALREADY_SENT to
 * say it is done). Such an answer has no body, so no Content-Type or Content-Length either, yet
 * @hono/node-server gives every answer without a Content-Type `text/plain` (and a string body its
 * length), and node sends both even with a 204. Its headers are those set on node's response
 * (setHeader); one given to hono for it would not go out. Without node under the app
 * (app.request), hono's own Response is right as it is.
 */
export function bodilessHeads(): MiddlewareHandler {
  return async function bodilessHeads(c, next) {
    await next()
    const { status } = c.res
    if (status !== 204 && status !== 304) return
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
    if (!outgoing || outgoing.headersSent) return
    outgoing.writeHead(status).end()
    // Hono merges the headers of the answer it holds into one that replaces it (building a fetch
    // Response to do so), unless it holds none: the head written here has them all already.
    c.res = undefined
    c.res = RESPONSE_ALREADY_SENT
  }
}
