// How logs, errors and metrics name a process: `nfv 1`, `primary`, or `unidentified`.
import type { ProcessKind } from '../protocol/bodies.ts'

/** A process's name in logs, errors and metric labels. */
export const processLabel = ({ kind, clientId }: { kind?: ProcessKind; clientId?: number }) =>
  kind === undefined ? 'unidentified' : clientId === undefined ? kind : `${kind} ${clientId}`
