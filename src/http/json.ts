// Success answers: JSON serialised once per shared reply, and 204 with nothing at all.
import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

// Coalesced requests share one decoded reply object: it is serialised once for all of them.
const serialised = new WeakMap<object, string>()

/** A 200 JSON answer, serialising each reply object only once. */
export function json(c: Context, value: object): Response {
  let text = serialised.get(value)
  if (text === undefined) serialised.set(value, (text = JSON.stringify(value)))
  return c.body(text, 200, { 'Content-Type': 'application/json' })
}

/**
 * A 204: no body. Served by node, an empty string: @hono/node-server writes a string body straight
 * from its own Response, where a null one makes it build a whole fetch Response to read its
 * headers. The head's Content-Type and Content-Length go in node-answers.ts. Without node under it
 * (app.request), null: a fetch Response refuses any body with a 204.
 */
export const noContent = (c: Context): Response =>
  (c.env as Partial<HttpBindings> | undefined)?.outgoing
    ? c.body('', 204 as ContentfulStatusCode)
    : c.body(null, 204)
