// What others may know of a process's connection: who it is, what it has shown, how busy it is.
import type { ProcessKind } from '../protocol/bodies.ts'
import { labelOf, type ProcessId } from '../protocol/process-id.ts'
import { capsOf, eraLabel, type Caps, type Learnt } from '../protocol/release.ts'
import type { ProcessView } from '../state/process-view.ts'
import type { ProcessConnection } from './process-connection.ts'

/** What a process's connection knows now; a field is absent until something told it. */
export type ProcessDescription = {
  id?: ProcessId
  kind?: ProcessKind
  clientId?: number
  /** `nfv:1`, `primary`, or `unidentified`. */
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
  const { learnt, id } = connection.getSnapshot().context
  if (!learnt) return undefined
  let caps = capsMade.get(learnt)
  if (!caps) capsMade.set(learnt, (caps = capsOf(learnt, id?.clientId)))
  return caps
}

/** The process behind a connection, as the rest of the controller may see it. */
export function describe(connection: ProcessConnection): ProcessDescription {
  const snapshot = connection.getSnapshot()
  const { id, learnt, view, queue, inFlight, closeReason, socket } = snapshot.context
  const caps = capsNow(connection)
  const description: ProcessDescription = {
    label: labelOf(id),
    peer: `${socket.remoteAddress}:${socket.remotePort}`,
    era: eraLabel(learnt),
    queueDepth: queue.length + (inFlight ? 1 : 0),
    open: snapshot.status === 'active',
  }
  if (id) {
    description.id = id
    description.kind = id.kind
    if (id.clientId !== undefined) description.clientId = id.clientId
  }
  if (caps) description.caps = caps
  if (view) description.view = view
  if (closeReason !== undefined) description.closeReason = closeReason
  return description
}
