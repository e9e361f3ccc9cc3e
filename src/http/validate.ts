// What a request carries: its headers, read from node's own, and its body read as a JSON object
// under hono's body limit (checked in src/requests/check.ts).
import { text } from 'node:stream/consumers'
import type { HttpBindings } from '@hono/node-server'
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type * as v from 'valibot'
import { ControllerError } from '../protocol/errors.ts'
import { isRecord } from '../protocol/text.ts'
import { bodyOf, check, invalid } from '../requests/check.ts'

/** A body of declared length (Content-Length, not chunked), and node's request to read it from. */
type Declared = { incoming: HttpBindings['incoming']; bytes: number }

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's body as read (readRecord), for the journal. */
    requestBody?: Record<string, unknown>
    /** Its declared length, as `bodyLimits` read it once (absent: chunked, or not from node). */
    declaredBody?: Declared
  }
}

/**
 * A request header (`name` in lower case), from node's own headers when node serves the request:
 * hono's c.req.header would build a whole fetch Request to read it. Through hono without node.
 */
export function requestHeader(c: Context, name: Lowercase<string>): string | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming
  // eslint-disable-next-line no-restricted-syntax -- the one way in, without node under the app
  if (!incoming) return c.req.header(name)
  const value = incoming.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

const tooLarge = (max: number) =>
  new ControllerError('BODY_TOO_LARGE', `request body exceeds ${max} bytes`)

// Reading a body fails only when its client closed the connection before the body's end.
const closedMidBody = () =>
  new ControllerError('CLIENT_GONE', 'client closed the connection while sending its body')

/**
 * The node request behind `c` when its body's length is declared (Content-Length, not chunked):
 * node's HTTP parser then reads exactly that many bytes, so the length is the size. Undefined
 * for a chunked body, or a request that did not come through node's server.
 */
function declared(c: Context): Declared | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming
  const { headers } = incoming ?? {}
  if (!incoming || !headers || headers['transfer-encoding'] !== undefined) return undefined
  const length = headers['content-length']
  return length === undefined ? undefined : { incoming, bytes: Number(length) }
}

/**
 * A body over `maxBytes` is refused with 413 before any handler reads it. A declared length is
 * compared as it stands (all hono's body-limit middleware does with one). A chunked body, or one
 * not from node's server, goes through that middleware, which counts the bytes as they come. GET
 * and HEAD carry no body: they skip it. A client that leaves while its body is read is a 499, as
 * in a handler (readText).
 *
 * Why not the middleware for every body: it reads `c.req.raw.body`, which makes
 * @hono/node-server build a whole fetch Request (an AbortController, a web stream over node's),
 * about as much CPU again as the rest of a PUT (docs/speed.md). The length read here is kept on
 * the context for `readText`.
 */
export function bodyLimits({ maxBytes }: { maxBytes: number }): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge(maxBytes)
    },
  })
  return async function bodyLimits(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const length = declared(c)
    if (length) {
      if (length.bytes > maxBytes) throw tooLarge(maxBytes)
      c.set('declaredBody', length)
      return next()
    }
    try {
      // Errors of the handlers after it are answered there (hono's onError), never thrown here.
      await limit(c, next)
    } catch (error) {
      throw error instanceof ControllerError ? error : closedMidBody()
    }
  }
}

/** A request's query parameters: one value each (a repeated one is refused by the schema). */
export const queryOf = (c: Context) =>
  Object.fromEntries(
    Object.entries(c.req.queries()).map(([key, values]) => [
      key,
      values.length > 1 ? values : values[0],
    ]),
  )

/**
 * A declared body that node's parser has all of already, as it has one that came in the request's
 * own packets (a small body does): taken from the request's buffer in one `read()`. Undefined
 * when some of it is still to come, or its client has gone (then `text()` says so).
 */
function buffered({ incoming, bytes }: Declared): string | undefined {
  if (incoming.destroyed || incoming.readableLength !== bytes) return undefined
  const body = bytes === 0 ? '' : (incoming.read() as Buffer).toString('utf8')
  // Node's parser runs this between the body's last bytes and the message's end, which it marks
  // next: flowing, with nothing left to give, the request then ends at once, as one read to its
  // end does (@hono/node-server drains a request still open when its answer is sent).
  incoming.resume()
  return body
}

/**
 * The body as text (its size already checked by `bodyLimits`): of a declared length, straight
 * from node's request (no fetch Request built); else as hono's middleware buffered it.
 */
async function readText(c: Context): Promise<string> {
  try {
    const length = c.get('declaredBody')
    if (!length) return await c.req.text()
    return buffered(length) ?? (await text(length.incoming))
  } catch {
    throw closedMidBody()
  }
}

/** The request body as JSON whatever its Content-Type says, checked against a schema. */
export async function readJson<S extends v.GenericSchema>(
  c: Context,
  schema: S,
): Promise<v.InferOutput<S>> {
  return check(schema, await readRecord(c))
}

/** The request body as a JSON object, whatever its Content-Type says, not checked further. */
export async function readRecord(c: Context): Promise<Record<string, unknown>> {
  return bodyOf(await readOptionalRecord(c))
}

/** The request body as a JSON object, or undefined when it is empty. */
export async function readOptionalRecord(c: Context): Promise<Record<string, unknown> | undefined> {
  const text = await readText(c)
  if (text.trim() === '') return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw invalid('request body is not valid JSON')
  }
  if (!isRecord(body)) throw invalid('request body must be a JSON object')
  c.set('requestBody', body)
  return body
}
