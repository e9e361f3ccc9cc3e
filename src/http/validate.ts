import type { Context } from 'hono'
import * as v from 'valibot'
import { ControllerError } from '../errors.ts'
import { isRecord, preview } from '../protocol/text.ts'

const invalid = (message: string) => new ControllerError('INVALID_REQUEST', message)

/** The first problem of a failed parse, naming the field as SPP's controller did: `key(port) required.` */
function describe(issue: v.BaseIssue<unknown>, field?: string): string {
  const key = [field, v.getDotPath(issue)].filter(Boolean).join('.')
  if (issue.input === undefined) return `key(${key}) required.`
  const shown = typeof issue.input === 'string' ? preview(issue.input, 64) : preview(JSON.stringify(issue.input) ?? String(issue.input), 64)
  return `invalid key(${key}): ${shown} (${issue.message})`
}

/** Checks a value (e.g. a path segment, named `field` in errors) against a schema, or throws a 400. */
export function check<S extends v.GenericSchema>(schema: S, value: unknown, field?: string): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value, { abortEarly: true })
  if (!parsed.success) throw invalid(describe(parsed.issues[0], field))
  return parsed.output
}

/** The request body as JSON whatever its Content-Type says, checked against a schema. */
export async function readJson<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  const text = await c.req.text()
  if (text.trim() === '') throw invalid('request body is empty: expected a JSON object')
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw invalid('request body is not valid JSON')
  }
  if (!isRecord(body)) throw invalid('request body must be a JSON object')
  return check(schema, body)
}
