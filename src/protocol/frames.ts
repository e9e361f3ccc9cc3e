// Cuts a process's byte stream into replies: NUL-padded frames (primary, nfv) or JSON objects (vf, mirror, pcap).
import { paddedReader } from './padded-frames.ts'
import { fail, ok, type Result } from './result.ts'

/**
 * How replies on a connection are delimited. `padded`: a C string padded with NULs to a frame of
 * 2048 or 32768 bytes (primary, nfv; see padded-frames.ts). `json`: one complete JSON object
 * each, no terminator (vf, mirror, pcap). `detect`: a secondary before its handshake; its first
 * reply decides: digits are an 18.11 nfv (padded), `{` a JSON object, and NULs after that object
 * a 2019+ nfv (padded from then on).
 */
export type Framing = 'padded' | 'json' | 'detect'

/** Cuts a byte stream into replies; `push` returns the replies that the chunk completed. */
export type FrameReader = {
  push(chunk: Buffer): Result<Buffer[]>
  /** Bytes held for a reply that is not complete yet. */
  readonly pending: number
  /** A padded connection's frame length (2048 or 32768), once measured. */
  readonly frameBytes: number | undefined
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
  let padded = framing === 'padded' ? paddedReader(maxBytes) : undefined
  // A detected JSON first reply may be an nfv's handshake: NULs right after it switch to padded.
  let firstReply: number | undefined
  let replies = 0
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
    replies++
    return frame
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
          const frame = take(chunk.subarray(start, i + 1))
          if (replies === 1 && framing === 'detect') firstReply = frame.length
          frames.push(frame)
          start = i + 1
        }
      } else if (depth === 0) {
        if (b === 0 && firstReply !== undefined && replies === 1) {
          mode = 'padded'
          padded = paddedReader(maxBytes, firstReply)
          const rest = padded.push(chunk.subarray(i))
          return rest.ok ? ok([...frames, ...rest.value]) : rest
        }
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
        mode = chunk[0] === OPEN ? 'json' : 'padded'
        if (mode === 'padded') padded = paddedReader(maxBytes)
      }
      return padded ? padded.push(chunk) : pushJson(chunk)
    },
    get pending() {
      return padded ? padded.pending : pending
    },
    get frameBytes() {
      return padded?.frameBytes
    },
  }
}
