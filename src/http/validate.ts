// Request bodies and path segments checked against valibot schemas: a 400 naming the field.
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import * as v from 'valibot'
import { ControllerError } from '../protocol/errors.ts'
import { isRecord, preview } from '../protocol/text.ts'

const invalid = (message: string) => new ControllerError('INVALID_REQUEST', message)

/**
 * A value for an error text: a short preview of a scalar, only the type of anything else. Never
 * serialised whole: a body nested 30000 levels deep would overflow the stack.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return preview(value, 64)
  if (Array.isArray(value)) return `an array of ${value.length} items`
  if (value === null) return 'null'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return typeof value
}

/**
 * The first problem of a failed parse, naming the field as SPP's controller did: `key(port)
 * required.` A check of the whole body forwarded to a field (a pipe's `tx`) is about that field's
 * value, missing or not, and says why it is needed.
 */
function describe(issue: v.BaseIssue<unknown>, field?: string): string {
  const key = [field, v.getDotPath(issue)].filter(Boolean).join('.')
  const at = issue.path?.at(-1)
  const forwarded = at !== undefined && issue.input === at.input // a check of the object, not of the key
  const input = forwarded ? at.value : issue.input
  if (input === undefined)
    return forwarded ? `key(${key}) required: ${issue.message}.` : `key(${key}) required.`
  return `invalid key(${key}): ${describeValue(input)} (${issue.message})`
}

/** Checks a value (e.g. a path segment, named `field` in errors) against a schema, or throws a 400. */
export function check<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  field?: string,
): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value, { abortEarly: true })
  if (!parsed.success) throw invalid(describe(parsed.issues[0], field))
  return parsed.output
}

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's body as read (readRecord), for the journal. */
    requestBody?: Record<string, unknown>
  }
}

const tooLarge = (max: number) =>
  new ControllerError('BODY_TOO_LARGE', `request body exceeds ${max} bytes`)

// Reading a body fails only when its client closed the connection before the body's end.
const clientGone = () =>
  new ControllerError('CLIENT_GONE', 'client closed the connection while sending its body')

/**
 * hono's body-limit middleware: a body over `maxBytes` is refused with 413 before any handler
 * reads it, at once when its declared length is over, else as soon as the bytes read pass it.
 * GET and HEAD carry no body: they skip it (it would build a whole fetch Request to see so). A
 * client that leaves while it is read is a 499, as in a handler (readText).
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
    try {
      // Errors of the handlers after it are answered there (hono's onError), never thrown here.
      await limit(c, next)
    } catch (error) {
      throw error instanceof ControllerError ? error : clientGone()
    }
  }
}

/** The body as text (its size already checked by `bodyLimits`). */
async function readText(c: Context): Promise<string> {
  try {
    return await c.req.text()
  } catch {
    throw clientGone()
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
  const body = await readOptionalRecord(c)
  if (body === undefined) throw invalid('request body is empty: expected a JSON object')
  return body
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
