// A request's values checked against valibot schemas: a 400 naming the field, as SPP's controller
// named it. A client's body and a plan's step are checked by the same words.
import * as v from 'valibot'
import { ControllerError } from '../protocol/errors.ts'
import { preview } from '../protocol/text.ts'

/** A 400: the request itself is wrong, nothing was sent. */
export const invalid = (message: string) => new ControllerError('INVALID_REQUEST', message)

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

/** A body that must be there: a 400 when there is none. */
export function bodyOf(body: Record<string, unknown> | undefined): Record<string, unknown> {
  if (body === undefined) throw invalid('request body is empty: expected a JSON object')
  return body
}
