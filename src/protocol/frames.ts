import { fail, ok, type Result } from './result.ts'

/** Every primary and nfv reply is exactly this many bytes: a C string padded with NULs. */
export const FIXED_REPLY_BYTES = 2048

/**
 * How replies on a connection are delimited. `fixed`: 2048-byte blocks (primary, nfv).
 * `json`: one complete JSON object each, no terminator (vf, mirror). `detect`: a secondary
 * before its handshake; its first reply decides (vf and mirror answer with `{`, nfv with digits).
 */
export type Framing = 'fixed' | 'json' | 'detect'

/** Cuts a byte stream into replies; `push` returns the replies that the chunk completed. */
export type FrameReader = {
  push(chunk: Buffer): Result<Buffer[]>
  /** Bytes held for a reply that is not complete yet. */
  readonly pending: number
}

const OPEN = 0x7b // {
const CLOSE = 0x7d // }
const QUOTE = 0x22
const BACKSLASH = 0x5c
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09

/**
 * A frame reader that never holds more than `maxBytes` of one reply: a longer reply is an error,
 * and so is anything that cannot start a reply. Bytes may arrive split or merged in any way.
 */
export function frameReader(framing: Framing, maxBytes: number): FrameReader {
  let mode = framing
  let parts: Buffer[] = []
  let pending = 0
  // JSON scanner state, carried across chunks so that every byte is looked at once.
  let depth = 0
  let inString = false
  let escaped = false

  const hold = (bytes: Buffer) => {
    if (bytes.length === 0) return
    parts.push(bytes)
    pending += bytes.length
  }
  const take = (last: Buffer): Buffer => {
    const frame = parts.length === 0 ? last : Buffer.concat([...parts, last])
    parts = []
    pending = 0
    return frame
  }

  const pushFixed = (chunk: Buffer): Result<Buffer[]> => {
    const frames: Buffer[] = []
    let start = 0
    while (pending + (chunk.length - start) >= FIXED_REPLY_BYTES) {
      const end = start + FIXED_REPLY_BYTES - pending
      frames.push(take(chunk.subarray(start, end)))
      start = end
    }
    hold(chunk.subarray(start))
    return ok(frames)
  }

  const pushJson = (chunk: Buffer): Result<Buffer[]> => {
    const frames: Buffer[] = []
    let start = 0
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number
      if (inString) {
        if (escaped) escaped = false
        else if (b === BACKSLASH) escaped = true
        else if (b === QUOTE) inString = false
      } else if (b === OPEN) {
        depth++
      } else if (b === CLOSE && depth > 0) {
        if (--depth === 0) {
          frames.push(take(chunk.subarray(start, i + 1)))
          start = i + 1
        }
      } else if (depth === 0) {
        if (!isSpace(b))
          return fail(
            `reply is not a JSON object (byte 0x${b.toString(16).padStart(2, '0')} outside an object)`,
          )
        start = i + 1 // white space between replies belongs to none
      } else if (b === QUOTE) {
        inString = true
      }
    }
    hold(chunk.subarray(start))
    if (pending > maxBytes) return fail(`reply exceeds ${maxBytes} bytes`)
    return ok(frames)
  }

  return {
    push(chunk) {
      if (mode === 'detect') {
        if (chunk.length === 0) return ok([])
        mode = chunk[0] === OPEN ? 'json' : 'fixed'
      }
      return mode === 'json' ? pushJson(chunk) : pushFixed(chunk)
    },
    get pending() {
      return pending
    },
  }
}
