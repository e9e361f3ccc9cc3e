// The simulator's fault modes, as `--fault` arguments.
import type { Faults } from './sim-process.ts'

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
