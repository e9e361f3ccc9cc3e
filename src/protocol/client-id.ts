import * as v from 'valibot'
import { PrimaryStatus } from './primary.ts'
import { decodeJsonText, decodeResults } from './replies.ts'
import { fail, ok, type Result } from './result.ts'
import { cString, preview } from './text.ts'
import type { ProcessKind, SecondaryKind } from './types.ts'

/** The handshake command sent to every secondary right after it connects. */
export const GET_CLIENT_ID = '_get_client_id'

const JsonId = v.object({
  client_id: v.pipe(v.number(), v.integer(), v.minValue(-65535), v.maxValue(65535)),
  process_type: v.picklist(['vf', 'mirror']),
})

/** Who answered the handshake: an nfv says its id in decimal, a vf or mirror in JSON. */
export function decodeClientId(frame: Buffer): Result<{ kind: SecondaryKind; clientId: number }> {
  if (frame[0] === 0x7b) {
    const reply = decodeResults(frame, JsonId, '_get_client_id')
    return reply.ok
      ? ok({ kind: reply.value.process_type, clientId: reply.value.client_id })
      : reply
  }
  const text = cString(frame)
  if (!text.ok) return text
  const digits = /^\s*(\d{1,5})\s*$/.exec(text.value)?.[1]
  if (digits === undefined || Number(digits) > 65535)
    return fail(`unexpected _get_client_id reply: ${preview(text.value)}`)
  return ok({ kind: 'nfv', clientId: Number(digits) })
}

export type Identity = { kind: ProcessKind; clientId?: number }

/**
 * How a new connection proves what it is. A secondary names itself with `_get_client_id`. The
 * primary has no handshake in SPP; it is probed with `status` (read-only, answered at once), so
 * that a peer which merely connects to the primary port cannot take the primary's place.
 */
export const HANDSHAKES: Record<
  'primary' | 'secondary',
  { line: string; decode: (frame: Buffer) => Result<Identity> }
> = {
  secondary: { line: GET_CLIENT_ID, decode: decodeClientId },
  primary: {
    line: 'status',
    decode: (frame) => {
      const status = decodeJsonText(frame, PrimaryStatus, 'primary status')
      return status.ok ? ok({ kind: 'primary' }) : status
    },
  },
}
