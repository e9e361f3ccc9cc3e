// The one window others get into a process's actor: who it is, what it has shown, how busy it is.
import type { ProcessKind } from '../protocol/bodies.ts'
import { capsOf, eraLabel, type Caps, type Learnt } from '../protocol/release.ts'
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

// A request may ask a process's capabilities more than once: they are made once per thing learnt
// (`learnt` is replaced, never changed, and belongs to one connection).
const capsMade = new WeakMap<Learnt, Caps>()

/** What a connection's process has shown of its release, once identified. */
export function capsNow(connection: ProcessConnection): Caps | undefined {
  const { learnt, clientId } = connection.getSnapshot().context
  if (!learnt) return undefined
  let caps = capsMade.get(learnt)
  if (!caps) capsMade.set(learnt, (caps = capsOf(learnt, clientId)))
  return caps
}

/** The process behind a connection, as the rest of the controller may see it. */
export function describe(connection: ProcessConnection): ProcessDescription {
  const snapshot = connection.getSnapshot()
  const { kind, clientId, learnt, view, queue, closeReason, socket } = snapshot.context
  const caps = capsNow(connection)
  // Fields set one by one: a literal of conditional spreads cost about 10 µs per call.
  const description: ProcessDescription = {
    label: processLabel({ kind, clientId }),
    peer: `${socket.remoteAddress}:${socket.remotePort}`,
    era: eraLabel(learnt),
    queueDepth: queue.length + (queue.current ? 1 : 0),
    open: snapshot.status === 'active',
  }
  if (kind !== undefined) description.kind = kind
  if (clientId !== undefined) description.clientId = clientId
  if (caps) description.caps = caps
  if (view) description.view = view
  if (closeReason !== undefined) description.closeReason = closeReason
  return description
}
