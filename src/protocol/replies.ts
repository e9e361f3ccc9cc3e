// Reply decoding shared by every kind: NUL-padded JSON, vf-style results, memoised decoders.
import * as v from 'valibot'
import { fail, ok, type Result } from './result.ts'
import { cString, decodeUtf8, parseJson } from './text.ts'

/** Reads a NUL-padded JSON reply (primary, nfv) against a schema. */
export function decodeJsonText<S extends v.GenericSchema>(
  frame: Buffer,
  schema: S,
  what: string,
): Result<v.InferOutput<S>> {
  const text = cString(frame)
  return text.ok ? checkJson(text.value, schema, what) : text
}

const Results = v.object({
  results: v.pipe(
    v.array(
      v.looseObject({
        result: v.string(),
        error_details: v.optional(v.looseObject({ message: v.string() })),
      }),
    ),
    v.minLength(1),
  ),
})

/**
 * Reads a vf or mirror reply (one JSON object) against a schema. `"result": "error"` is the
 * process rejecting the command, reported with its own message as SPP's controller did.
 */
export function decodeResults<S extends v.GenericSchema>(
  frame: Buffer,
  schema: S,
  what: string,
): Result<v.InferOutput<S>> {
  const text = decodeUtf8(frame)
  if (!text.ok) return text
  const json = parseJson(text.value)
  if (!json.ok) return json
  const results = v.safeParse(Results, json.value)
  if (!results.success) return fail(`unexpected ${what} reply: no results`)
  const [first] = results.output.results
  if (first?.result === 'error')
    return fail(
      `command error: ${first.error_details?.message ?? 'unknown error'}`,
      'COMMAND_REJECTED',
    )
  return checkShape(json.value, schema, what)
}

function checkJson<S extends v.GenericSchema>(
  text: string,
  schema: S,
  what: string,
): Result<v.InferOutput<S>> {
  const json = parseJson(text)
  return json.ok ? checkShape(json.value, schema, what) : json
}

function checkShape<S extends v.GenericSchema>(
  value: unknown,
  schema: S,
  what: string,
): Result<v.InferOutput<S>> {
  const parsed = v.safeParse(schema, value)
  if (parsed.success) return ok(parsed.output)
  const [issue] = parsed.issues
  const where = v.getDotPath(issue)
  return fail(`unexpected ${what} reply: ${where ? `${where}: ` : ''}${issue.message}`)
}

/**
 * A decoder that reads each distinct reply once: a status read again while nothing changed (a
 * dashboard polling it) comes back byte for byte the same, so one comparison gives the value
 * decoded last time (and src/http/json.ts the JSON it already made of it). The value is shared:
 * nobody changes it. (A reply that several requests share is decoded once anyway, by its job.)
 */
export function once<T>(decode: (frame: Buffer) => Result<T>): (frame: Buffer) => Result<T> {
  let lastFrame: Buffer | undefined
  let last: Result<T> | undefined
  return (frame) => {
    if (frame === lastFrame || (lastFrame !== undefined && frame.equals(lastFrame))) return last!
    last = decode(frame)
    lastFrame = frame
    return last
  }
}
