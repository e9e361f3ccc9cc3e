// Untrusted text from a process: C strings, UTF-8, JSON, and short previews for messages.
import { fail, ok, type Result } from './result.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The C string at the start of a NUL-padded reply (everything before the first NUL). */
export function cString(frame: Buffer): Result<string> {
  const end = frame.indexOf(0)
  return decodeUtf8(end === -1 ? frame : frame.subarray(0, end))
}

export function decodeUtf8(bytes: Uint8Array): Result<string> {
  try {
    return ok(utf8.decode(bytes))
  } catch {
    return fail('reply is not valid UTF-8')
  }
}

/** Parses JSON text; a failure is a typed result, never an exception. */
export function parseJson(text: string): Result<unknown> {
  try {
    return ok(JSON.parse(text) as unknown)
  } catch {
    return fail(`reply is not valid JSON: ${preview(text)}`)
  }
}

/** A short, printable rendering of untrusted text for messages and logs. */
export function preview(text: string, max = 80): string {
  const shown = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text)
  return shown
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
