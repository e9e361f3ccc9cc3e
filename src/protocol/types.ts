import type { Result } from './result.ts'

export type ProcessKind = 'primary' | 'nfv' | 'vf' | 'mirror'
export type SecondaryKind = Exclude<ProcessKind, 'primary'>

/** An nfv's forwarding state, as the REST spec spells it (the wire says running/idling). */
export type NfvStatus = 'Running' | 'Idle'

/** A component as the controller last saw it on a vf or mirror. */
export type ComponentInfo = { name: string; core: number; type: string }

/** What the controller knows of a process between commands: kept up to date from replies. */
export type ProcessView = { status?: NfvStatus; components?: ComponentInfo[] }

/**
 * One command for one process: the exact line to send, how to read its reply, and what a
 * successful reply tells about the process (`track`). `closes`: the process exits after replying.
 * `coalesce`: a read whose one reply can answer every request that waits for it (`status`).
 */
export type Command<T = unknown> = {
  line: string
  decode: (frame: Buffer) => Result<T>
  track?(view: ProcessView, value: T): ProcessView
  closes?: boolean
  coalesce?: boolean
}
