// Success answers: JSON serialised once per shared reply, and 204 with nothing at all.
import type { Context } from 'hono'

// Coalesced requests share one decoded reply object: it is serialised once for all of them.
const serialised = new WeakMap<object, string>()

/** A 200 JSON answer, serialising each reply object only once. */
export function json(c: Context, value: object): Response {
  let text = serialised.get(value)
  if (text === undefined) serialised.set(value, (text = JSON.stringify(value)))
  return c.body(text, 200, { 'Content-Type': 'application/json' })
}

/** A 204: no body. */
export const noContent = (c: Context): Response => c.body(null, 204)
