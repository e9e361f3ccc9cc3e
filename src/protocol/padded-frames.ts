// Cuts primary/nfv replies (a C string padded with NULs to a frame of unannounced length) without a timer.
import { LONG_FRAME_BYTES, SHORT_FRAME_BYTES as MIN_FRAME_BYTES } from './release.ts'
import { fail, ok, type Result } from './result.ts'

const OPEN = 0x7b // {
// Compared against, never written: padding is checked by the block, natively.
const NULS = Buffer.alloc(LONG_FRAME_BYTES)

/**
 * Where the NULs from `at` end: the first byte that is not NUL, or the chunk's end. The padding
 * nearly always runs to the end of the chunk (one command in flight: the next reply comes after
 * the next command), so one native comparison answers; a reply starting inside the span (as a
 * test stream has them back to back) is found byte by byte within it.
 */
function endOfNuls(chunk: Buffer, at: number): number {
  if (chunk[at] !== 0) return at // a reply right at the start: the usual case of a new chunk
  while (at < chunk.length) {
    const span = Math.min(chunk.length - at, NULS.length)
    if (chunk.compare(NULS, 0, span, at, at + span) !== 0) break
    at += span
  }
  while (at < chunk.length && chunk[at] === 0) at++
  return at
}

/**
 * A reply is complete once 2048 bytes are in and, if it is JSON (starts with `{`), a NUL has
 * been seen after its text (a 2020 status may exceed 2048 bytes; an echo has NULs between its
 * tokens, so only JSON waits for one). The padding after it is skipped up to the next non-NUL
 * byte, which starts the next reply: one command is in flight at a time, so a reply's padding
 * always arrives before the next reply. The bytes from one reply's start to the next's tell the
 * frame length (`frameBytes`), learnt without sending anything.
 */
export function paddedReader(maxBytes: number, afterReplyOf?: number) {
  let parts: Buffer[] = []
  let held = 0 // bytes of the reply being read
  let nulSeen = false
  // Inside the padding after a delivered reply; leading NULs are skipped too (spp-ctl 2020 does).
  let skipping = true
  // Bytes since the delivered reply started (reply + padding so far); none delivered yet: nothing to learn.
  let sinceStart = afterReplyOf ?? Number.NEGATIVE_INFINITY
  let frameBytes: number | undefined
  let nuls = 0 // NULs skipped since the last reply started: more than one frame is not padding

  const learn = (length: number) => {
    if (length === MIN_FRAME_BYTES || length === LONG_FRAME_BYTES) frameBytes = length
  }
  const deliver = (): Buffer => {
    // A reply that came in one chunk is a view of it, not a copy.
    const reply = parts.length === 1 ? parts[0]! : Buffer.concat(parts)
    parts = []
    sinceStart = held
    held = 0
    nulSeen = false
    skipping = true
    return reply
  }

  const push = (chunk: Buffer): Result<Buffer[]> => {
    const replies: Buffer[] = []
    let at = 0
    while (at < chunk.length) {
      if (skipping) {
        const end = endOfNuls(chunk, at)
        sinceStart += end - at
        nuls += end - at
        if (sinceStart >= LONG_FRAME_BYTES) learn(LONG_FRAME_BYTES)
        if (nuls > LONG_FRAME_BYTES)
          return fail(`more than ${LONG_FRAME_BYTES} bytes of NUL padding without a reply`)
        at = end
        if (at === chunk.length) break
        learn(sinceStart)
        skipping = false
        nuls = 0
      }
      const first = held === 0 ? chunk[at] : (parts[0]?.[0] as number)
      // The reply needs at least this many more bytes before it can be complete.
      const need = Math.max(MIN_FRAME_BYTES - held, 0)
      let end = Math.min(chunk.length, at + need)
      if (first === OPEN) {
        const nul = nulSeen ? -1 : chunk.indexOf(0, at)
        if (nul !== -1 && nul < chunk.length) nulSeen = true
        if (!nulSeen) end = chunk.length
        else if (nul >= end) end = nul + 1
      }
      parts.push(chunk.subarray(at, end))
      held += end - at
      at = end
      if (held > maxBytes) return fail(`reply exceeds ${maxBytes} bytes`)
      if (held >= MIN_FRAME_BYTES && (first !== OPEN || nulSeen)) replies.push(deliver())
    }
    return ok(replies)
  }

  return {
    push,
    get pending() {
      return held
    },
    /** The frame length seen so far (2048 or 32768), once a reply's padding has been measured. */
    get frameBytes() {
      return frameBytes
    },
  }
}
