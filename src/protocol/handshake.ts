// The handshake: who answered `_get_client_id` (or the primary's `status` probe), and what its
// reply showed of its release.
import * as v from 'valibot'
import { PrimaryStatus, type ProcessKind, type SecondaryKind } from './bodies.ts'
import { statusShows, type Shown } from './release.ts'
import { decodeJsonText, decodeResults } from './replies.ts'
import { fail, ok, type Result } from './result.ts'
import { cString, preview } from './text.ts'

/** The handshake command sent to every secondary right after it connects. */
export const GET_CLIENT_ID = '_get_client_id'

const JsonId = v.object({
  client_id: v.pipe(v.number(), v.integer(), v.minValue(-65535), v.maxValue(65535)),
  process_type: v.picklist(['vf', 'mirror', 'nfv', 'pcap']),
})

/**
 * What a JSON handshake shows (spp-protocol-2020 §3.2, §9.1): an nfv's came with 18.08.2, and
 * spp_pcap itself; a vf's or mirror's is the same in every release (its status tells).
 */
const JSON_SHOWS: Record<SecondaryKind, Shown> = {
  nfv: { release: '18.08.2' },
  pcap: { release: '18.08.2' },
  vf: { release: '18.11' },
  mirror: { release: '18.11' },
}

/** Who connected, and what its handshake showed of its release. */
export type Identity = { kind: ProcessKind; clientId?: number; shows: Shown }

/**
 * Who answered the handshake: an 18.11 nfv says its id in decimal; a vf, mirror or pcap, and an
 * nfv from 18.08.2 on, in JSON (the nfv's compact and NUL-padded, cut by the frame reader).
 */
export function decodeClientId(frame: Buffer): Result<Identity & { kind: SecondaryKind }> {
  if (frame[0] === 0x7b) {
    const reply = decodeResults(frame, JsonId, '_get_client_id')
    if (!reply.ok) return reply
    const kind = reply.value.process_type
    return ok({ kind, clientId: reply.value.client_id, shows: JSON_SHOWS[kind] })
  }
  const text = cString(frame)
  if (!text.ok) return text
  const digits = /^\s*(\d{1,5})\s*$/.exec(text.value)?.[1]
  if (digits === undefined || Number(digits) > 65535)
    return fail(`unexpected _get_client_id reply: ${preview(text.value)}`)
  return ok({ kind: 'nfv', clientId: Number(digits), shows: { release: '18.11' } })
}

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
      return status.ok
        ? ok({ kind: 'primary', shows: statusShows('primary', status.value) })
        : status
    },
  },
}
