// The simulator's fault modes: what each does, and how `--fault` arguments name them.

/**
 * Ways to misbehave. Counts are 1-based and count the commands after the handshake
 * (`_get_client_id`, or the `status` probe of a primary).
 * Every fault applies to one connection; a reconnect starts counting again.
 */
export type Faults = {
  /** Hold every reply this long. */
  delayMs?: number
  /** Never answer the Nth command (the process answers the ones after it). */
  silentAt?: number
  /** Answer the Nth command only after this many ms. */
  late?: { at: number; ms: number }
  /** Answer the Nth command with bytes that are no valid reply. */
  garbageAt?: number
  /** Close the connection on receiving the Nth command. */
  closeAt?: number
  /** Pad every status reply to at least this many bytes (vf and mirror: JSON white space). */
  padStatusBytes?: number
  /** Send every reply in this many separate writes. */
  splitWrites?: number
  /** Answer the Nth command with a reply that never ends. */
  endlessAt?: number
  /** Never answer the handshake. */
  silentHandshake?: boolean
}

export const FAULT_HELP = `  delay=MS            hold every reply MS milliseconds
  silent-at=N         never answer the Nth command
  late-at=N:MS        answer the Nth command only after MS milliseconds
  garbage-at=N        answer the Nth command with bytes that are no valid reply
  close-at=N          close the connection on the Nth command
  pad-status=BYTES    pad status replies (vf, mirror, pcap) to BYTES
  split=K             send each reply in K separate writes
  endless-at=N        answer the Nth command with a reply that never ends
  silent-handshake    connect and never answer the handshake`

const count = /^[1-9][0-9]*$/

/** Parses one `--fault` argument into the faults it adds, or returns an error message. */
export function parseFault(text: string): Faults | string {
  const [name, value = ''] = text.split('=', 2)
  const n = count.test(value) ? Number(value) : NaN
  const numeric = (faults: Faults) =>
    Number.isNaN(n)
      ? `fault ${name} needs a positive integer, got ${JSON.stringify(value)}`
      : faults
  switch (name) {
    case 'delay':
      return numeric({ delayMs: n })
    case 'silent-at':
      return numeric({ silentAt: n })
    case 'garbage-at':
      return numeric({ garbageAt: n })
    case 'close-at':
      return numeric({ closeAt: n })
    case 'pad-status':
      return numeric({ padStatusBytes: n })
    case 'split':
      return numeric({ splitWrites: n })
    case 'endless-at':
      return numeric({ endlessAt: n })
    case 'late-at': {
      const [at = '', ms = ''] = value.split(':')
      return count.test(at) && count.test(ms)
        ? { late: { at: Number(at), ms: Number(ms) } }
        : `fault late-at needs N:MS, got ${JSON.stringify(value)}`
    }
    case 'silent-handshake':
      return { silentHandshake: true }
    default:
      return `unknown fault ${JSON.stringify(name)}`
  }
}

/** Pads a reply: JSON replies with spaces before their last brace, fixed replies cannot grow. */
export function pad(reply: Buffer, bytes: number): Buffer {
  if (reply[0] !== 0x7b || reply.length >= bytes || reply.at(-1) !== 0x7d) return reply
  return Buffer.concat([
    reply.subarray(0, -1),
    Buffer.alloc(bytes - reply.length, ' '),
    reply.subarray(-1),
  ])
}
