// The one window others get into a process's actor: who it is, what it has shown, how busy it is.
import type { ProcessKind } from '../protocol/bodies.ts'
import { capsOf, eraLabel, type Caps } from '../protocol/release.ts'
import type { ProcessView } from '../state/process-view.ts'
import { processLabel } from './label.ts'
import type { ProcessConnection } from './process-connection.ts'

/** What a process's connection knows now; a field is absent until something told it. */
export type ProcessDescription = {
  kind?: ProcessKind
  clientId?: number
  /** `nfv 1`, `primary`, or `unidentified`. */
  label: string
  /** Its address and port. */
  peer: string
  /** What it has shown of its release, asked by capability (once identified). */
  caps?: Caps
  /** 18.11, 2020, or unknown until a vf or mirror has shown it. */
  era: '18.11' | '2020' | 'unknown'
  view?: ProcessView
  /** Commands waiting for it or being answered. */
  queueDepth: number
  /** Whether the connection is still open. */
  open: boolean
  closeReason?: string
}

/** The process behind a connection, as the rest of the controller may see it. */
export function describe(connection: ProcessConnection): ProcessDescription {
  const snapshot = connection.getSnapshot()
  const { kind, clientId, learnt, view, queue, closeReason, socket } = snapshot.context
  return {
    ...(kind === undefined ? {} : { kind }),
    ...(clientId === undefined ? {} : { clientId }),
    label: processLabel({ kind, clientId }),
    peer: `${socket.remoteAddress}:${socket.remotePort}`,
    ...(learnt ? { caps: capsOf(learnt, clientId) } : {}),
    era: eraLabel(learnt),
    ...(view ? { view } : {}),
    queueDepth: queue.length + (queue.current ? 1 : 0),
    open: snapshot.status === 'active',
    ...(closeReason === undefined ? {} : { closeReason }),
  }
}
