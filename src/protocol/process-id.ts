// One name per process: its kind and, for a secondary, its client id; and every way it is written.
import * as v from 'valibot'
import type { ProcessKind, SecondaryKind } from './bodies.ts'

/** A process: the primary, or a secondary by its kind and client id. */
export type ProcessId =
  | { readonly kind: 'primary'; readonly clientId?: undefined }
  | { readonly kind: SecondaryKind; readonly clientId: number }

/** The section of the REST API, the topology document and the store that holds a kind. */
export const SECTIONS = {
  nfv: 'nfvs',
  vf: 'vfs',
  mirror: 'mirrors',
  pcap: 'pcaps',
} as const satisfies Record<SecondaryKind, string>
export type Section = (typeof SECTIONS)[SecondaryKind]

const KINDS: Record<string, SecondaryKind> = {
  nfv: 'nfv',
  vf: 'vf',
  mirror: 'mirror',
  pcap: 'pcap',
  nfvs: 'nfv',
  vfs: 'vf',
  mirrors: 'mirror',
  pcaps: 'pcap',
}

/** The kind of process a section holds. */
export const kindOfSection = (section: Section): SecondaryKind => KINDS[section]!

/** The primary. */
export const PRIMARY: ProcessId = { kind: 'primary' }

/** A process's id from its kind and (for a secondary) client id. */
export function processId(kind: ProcessKind, clientId?: number): ProcessId {
  if (kind === 'primary') return PRIMARY
  if (clientId === undefined) throw new TypeError(`a ${kind} needs a client id`)
  return { kind, clientId }
}

/**
 * How every message, log line, metric label, journal entry and command line names a process:
 * `primary`, `vf:2`. The one spelling users type and read.
 */
export const idText = (id: ProcessId): string =>
  id.kind === 'primary' ? 'primary' : `${id.kind}:${id.clientId}`

/** A connection's process as logs and errors name it: `unidentified` until its handshake says. */
export const labelOf = (id: ProcessId | undefined): string => (id ? idText(id) : 'unidentified')

/** The REST path of a process: `/v1/primary`, `/v1/vfs/2`. */
export const idPath = (id: ProcessId): string =>
  id.kind === 'primary' ? '/v1/primary' : `/v1/${SECTIONS[id.kind]}/${id.clientId}`

/** Whether two ids name the same process. */
export const sameId = (a: ProcessId, b: ProcessId): boolean =>
  a.kind === b.kind && a.clientId === b.clientId

/**
 * The slot a process takes among those connected: secondaries share one id space (an nfv and a vf
 * cannot both be client 2), and the primary has a slot of its own.
 */
export const slotOf = (id: ProcessId): string =>
  id.kind === 'primary' ? 'primary' : `#${id.clientId}`

/**
 * Why a process is not there, and which are: `no vf with client id 5 is connected; connected:
 * primary, nfv:1`, or, when its client id is another kind's, `client id 1 is nfv:1, not a vf
 * (/v1/nfvs/1); connected: ...`. The 404 of a request and a plan's refusal say it alike.
 */
export function notConnected(id: ProcessId, connected: readonly ProcessId[]): string {
  const listed = [...connected].sort(byId).map(idText).join(', ') || 'none'
  const other = id.kind === 'primary' ? undefined : connected.find((c) => slotOf(c) === slotOf(id))
  const article = id.kind === 'nfv' ? 'an' : 'a'
  const why = other
    ? `client id ${id.clientId} is ${idText(other)}, not ${article} ${id.kind} (${idPath(other)})`
    : id.kind === 'primary'
      ? 'no primary is connected'
      : `no ${id.kind} with client id ${id.clientId} is connected`
  return `${why}; connected: ${listed}`
}

/** What names a process as text: `vf:2`, `vfs/2`, `primary` (parseId also caps a client id). */
export const ID_PATTERN = /^(?:primary|(nfv|vf|mirror|pcap)s?[:/](0|[1-9][0-9]{0,4}))$/

/**
 * The process a text names, or undefined: `vf:2` (the spelling everything prints), also `vfs/2`
 * (a URL segment) and `primary`. A client id is written in decimal without leading zeros, so
 * that one process has one name.
 */
export function parseId(text: string): ProcessId | undefined {
  const match = ID_PATTERN.exec(text.trim())
  if (!match) return undefined
  const [, kind, id] = match
  if (kind === undefined) return PRIMARY
  const clientId = Number(id)
  return clientId > 65535 ? undefined : { kind: KINDS[kind]!, clientId }
}

/** How every refusal of a process's name says what it takes (pcap:4 and vfs/2 are read too). */
export const ID_SYNTAX = 'a process as vf:2, nfv:1, mirror:3 or primary'

/** A valibot check that a text names a process (`parseId`), refused with ID_SYNTAX. */
export const namesProcess = v.check((text: string) => parseId(text) !== undefined, ID_SYNTAX)

/** A process as a request names it (`vf:2`; `vfs/2` is read too): its ProcessId. */
export const ProcessName = v.pipe(
  v.string(ID_SYNTAX),
  namesProcess,
  v.transform((text) => parseId(text)!),
)

/** Orders ids as listings show them: the primary first, then by client id. */
export const byId = (a: ProcessId, b: ProcessId): number => (a.clientId ?? -1) - (b.clientId ?? -1)
