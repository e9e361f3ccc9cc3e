// How each release's spp_vf and spp_mirror differ (spp-protocol-2020 §6, §7), as data.
import type { Dir } from './vf-tokens.ts'

/** One release's rules for the vf and mirror decoders, status and replies. */
export type VfRules = {
  /** Component types each kind takes. */
  types: Record<'vf' | 'mirror', string[]>
  /** The type of which a second one on a core hangs the vf. */
  classifier: string
  /** Whether one core may run components of different types. */
  mixesTypes: boolean
  /** The release's wording of an 18.11 message (every decoder rejects in 18.11's words). */
  text: (message: string) => string
  /** `exit` is answered before the process closes (18.11 says nothing). */
  exitReply: boolean
  /** Status: index arrays of strings (a multi-queue phy port per queue) and `master-lcore`. */
  status2020: boolean
  /** Ports take a queue of a multi-queue phy port (`phy:0nq1`), and phy indexes are checked. */
  queues: boolean
  /** Port limits per direction checked before a port is added (2020); 18.11 checks at flush. */
  earlyLimits?: Record<string, Record<Dir, number>>
  /** Ports one direction of a component may have pending. */
  maxPending: number
  /** A mirror decodes `classifier_table`, then does nothing and answers success (2020). */
  mirrorIgnoresTable: boolean
}

/** 18.11 (d5c6c97): `classifier_mac`, `bad value(...)`, one type per core, no exit reply. */
export const RULES_18_11: VfRules = {
  types: { vf: ['classifier_mac', 'merge', 'forward'], mirror: ['mirror'] },
  classifier: 'classifier_mac',
  mixesTypes: false,
  text: (message) => message,
  exitReply: false,
  status2020: false,
  queues: false,
  maxPending: 32,
  mirrorIgnoresTable: false,
}

/** 18.11's texts in the 2020 dialect (§6.3). */
export const dialect = (message: string) =>
  message === 'bad message format'
    ? 'Wrong message format'
    : message.replace(/^bad value\((.*)\)$/, 'Invalid value ($1)')

/** 2020 (8e72ea0): `classifier`, `Invalid value (...)`, mixed types, queues, early limits. */
export const RULES_2020: VfRules = {
  types: { vf: ['classifier', 'merge', 'forward'], mirror: ['mirror'] },
  classifier: 'classifier',
  mixesTypes: true,
  text: dialect,
  exitReply: true,
  status2020: true,
  queues: true,
  earlyLimits: {
    forward: { rx: 1, tx: 1 },
    merge: { rx: 1024, tx: 1 },
    classifier: { rx: 1, tx: 1024 },
    mirror: { rx: 1, tx: 2 },
  },
  maxPending: Infinity,
  mirrorIgnoresTable: true,
}
