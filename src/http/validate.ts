// Request bodies and path segments checked against valibot schemas: a 400 naming the field.
import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import * as v from 'valibot'
import { ControllerError } from '../errors.ts'
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
    /** Larger request bodies are refused with 413 (set once per request by the app). */
    maxBodyBytes: number
    /** The request's body as read (readRecord), for the journal. */
    requestBody?: Record<string, unknown>
  }
}

const tooLarge = (max: number) =>
  new ControllerError('BODY_TOO_LARGE', `request body exceeds ${max} bytes`)

/**
 * The body as text, refused with 413 once it passes the limit: at once when its declared length
 * is over it, or as soon as the bytes read pass it. Read from node's request stream when serving
 * over a socket: building a web Request and ReadableStream for a 50-byte body cost a quarter of
 * the CPU of a PUT (measured).
 */
async function readText(c: Context): Promise<string> {
  const max = c.get('maxBodyBytes')
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming
  // node's own header, not c.req.header(): that would build a whole web Request per request
  const declared = incoming ? incoming.headers['content-length'] : c.req.header('content-length')
  if (Number(declared) > max) throw tooLarge(max)
  if (!incoming) {
    const text = await c.req.text()
    if (Buffer.byteLength(text) > max) throw tooLarge(max)
    return text
  }
  // With a declared length within the limit, node's parser keeps the body to it: no count needed.
  if (declared !== undefined) return readDeclared(incoming)
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of incoming as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > max) throw tooLarge(max)
      chunks.push(chunk)
    }
  } catch (error) {
    if (error instanceof ControllerError) throw error
    throw clientGone()
  }
  return Buffer.concat(chunks).toString('utf8')
}

// The stream fails or closes early only when the client closed its connection before its body ended.
const clientGone = () =>
  new ControllerError('CLIENT_GONE', 'client closed the connection while sending its body')

/** A body of declared length as text; listeners, not an async iterator, which cost more (measured). */
function readDeclared(incoming: HttpBindings['incoming']): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const stop = () =>
      incoming.off('data', data).off('end', end).off('error', gone).off('close', gone)
    const data = (chunk: Buffer) => chunks.push(chunk)
    const end = () => {
      stop()
      resolve(Buffer.concat(chunks).toString('utf8'))
    }
    const gone = () => {
      stop()
      reject(clientGone())
    }
    incoming.on('data', data).on('end', end).on('error', gone).on('close', gone)
  })
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
