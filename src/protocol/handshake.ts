// The handshake: who answered `_get_client_id` (or the primary's `status` probe), and in which era.
import * as v from 'valibot'
import { handshakeEra, primaryEra, type Era } from './era.ts'
import { PrimaryStatus } from './kinds/primary.ts'
import { decodeJsonText, decodeResults } from './replies.ts'
import { fail, ok, type Result } from './result.ts'
import { cString, preview } from './text.ts'
import type { ProcessKind, SecondaryKind } from './command.ts'

/** The handshake command sent to every secondary right after it connects. */
export const GET_CLIENT_ID = '_get_client_id'

const JsonId = v.object({
  client_id: v.pipe(v.number(), v.integer(), v.minValue(-65535), v.maxValue(65535)),
  process_type: v.picklist(['vf', 'mirror', 'nfv', 'pcap']),
})

/**
 * Who answered the handshake: an 18.11 nfv says its id in decimal; a vf, mirror or pcap, and an
 * nfv from 18.08.2 on, in JSON (the nfv's compact and NUL-padded, cut by the frame reader).
 */
export function decodeClientId(
  frame: Buffer,
): Result<{ kind: SecondaryKind; clientId: number; era?: Era }> {
  if (frame[0] === 0x7b) {
    const reply = decodeResults(frame, JsonId, '_get_client_id')
    if (!reply.ok) return reply
    const kind = reply.value.process_type
    const era = handshakeEra(kind, true)
    return ok({ kind, clientId: reply.value.client_id, ...(era ? { era } : {}) })
  }
  const text = cString(frame)
  if (!text.ok) return text
  const digits = /^\s*(\d{1,5})\s*$/.exec(text.value)?.[1]
  if (digits === undefined || Number(digits) > 65535)
    return fail(`unexpected _get_client_id reply: ${preview(text.value)}`)
  return ok({ kind: 'nfv', clientId: Number(digits), era: '18.11' })
}

/** Who connected, and the era its handshake showed (a vf's or mirror's shows in its status). */
export type Identity = { kind: ProcessKind; clientId?: number; era?: Era }

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
      return status.ok ? ok({ kind: 'primary', era: primaryEra(status.value) }) : status
    },
  },
}
