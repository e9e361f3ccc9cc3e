// One process's configuration, as remembered: taken from the controller's view of it, or changed by
// a command's effect through the view's own reducers. Pure.
import type { ProcessKind } from '../protocol/bodies.ts'
import type { Change } from '../protocol/effects.ts'
import type { ProcessKey, RememberedConfig } from '../store/store.ts'
import { nextView, type ProcessView } from '../state/process-view.ts'
import { configurationOf } from './configuration.ts'
import type { DesiredDocument } from './document.ts'
import type { TopologyDocument } from './read-topology.ts'

/** A process as the registry knows it: its kind, and its client id unless it is the primary. */
export type ProcessRef = { kind: ProcessKind; clientId?: number }

const SECTIONS = { nfv: 'nfvs', vf: 'vfs', mirror: 'mirrors' } as const
const KINDS = { nfvs: 'nfv', vfs: 'vf', mirrors: 'mirror' } as const

/** `vf:2`, `primary`: how the journal, the metrics and POST /v1/topology/restore name a process. */
export const processName = ({ kind, clientId }: ProcessRef) =>
  clientId === undefined ? kind : `${kind}:${clientId}`

const NAME = /^(?:primary|(nfv|vf|mirror):(0|[1-9][0-9]{0,9}))$/
/** The process a name (`vf:2`, `primary`) names, or undefined. */
export function refOfName(name: string): ProcessRef | undefined {
  const match = NAME.exec(name)
  if (!match) return undefined
  const [, kind, id] = match
  return kind === undefined
    ? { kind: 'primary' }
    : { kind: kind as ProcessKind, clientId: Number(id) }
}

/** Where the store keeps a process's configuration (a pcap has none to keep). */
export function storeKey({ kind, clientId }: ProcessRef): ProcessKey | undefined {
  if (kind === 'primary') return { section: 'primary' }
  if (kind === 'pcap' || clientId === undefined) return undefined
  return { section: SECTIONS[kind], clientId }
}

/** The process a store key names. */
export const refOf = (key: ProcessKey): ProcessRef =>
  key.section === 'primary'
    ? { kind: 'primary' }
    : { kind: KINDS[key.section], clientId: key.clientId }

/** Every process of a remembered (or desired) document, with its configuration. */
export function entriesOf(document: {
  primary?: unknown
  nfvs?: Record<string, unknown>
  vfs?: Record<string, unknown>
  mirrors?: Record<string, unknown>
}): [ProcessKey, RememberedConfig][] {
  const out: [ProcessKey, RememberedConfig][] = []
  if (document.primary !== undefined)
    out.push([{ section: 'primary' }, document.primary as RememberedConfig])
  for (const section of ['nfvs', 'vfs', 'mirrors'] as const)
    for (const [id, config] of Object.entries(document[section] ?? {}))
      out.push([{ section, clientId: Number(id) }, config as RememberedConfig])
  return out
}

/** A desired document with these processes' configurations. */
export function desiredOf(entries: readonly [ProcessKey, RememberedConfig][]): DesiredDocument {
  const desired: Record<string, unknown> = {}
  for (const [key, config] of entries)
    if (key.section === 'primary') desired.primary = config
    else ((desired[key.section] ??= {}) as Record<string, unknown>)[String(key.clientId)] = config
  return desired
}

/**
 * What the process's own GET would answer, from the view; undefined while the view lacks a part
 * (before its first status read).
 */
export function infoOf(ref: ProcessRef, view: ProcessView | undefined): object | undefined {
  const id = { 'client-id': ref.clientId ?? 0 }
  switch (view?.kind) {
    case 'primary':
      return view.status
    case 'nfv': {
      const { status, ports, patches } = view
      return status && ports && patches ? { ...id, status, ports, patches } : undefined
    }
    case 'vf':
    case 'mirror': {
      const { components, classifier_table } = view
      if (!components || (view.kind === 'vf' && !classifier_table)) return undefined
      const table = view.kind === 'vf' ? { classifier_table } : {}
      return { ...id, ports: view.ports ?? [], components, ...table }
    }
    default:
      return view?.info
  }
}

/** A topology document holding one process's state (and nothing for the others). */
export function documentOf(ref: ProcessRef, info: object): TopologyDocument {
  const document: TopologyDocument = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
  const key = storeKey(ref)
  if (key?.section === 'primary') document.primary = info as TopologyDocument['primary']
  else if (key) (document[key.section] as Record<string, object>)[String(key.clientId)] = info
  return document
}

/**
 * The configuration part of a process's view, as `configurationOf` defines it, or undefined when
 * it has none (a pcap, an 18.11 primary) or the view is not complete.
 */
export function configOfView(ref: ProcessRef, view: ProcessView | undefined) {
  const key = storeKey(ref)
  const info = infoOf(ref, view)
  if (!key || !info) return undefined
  // When the planner learns the primary's configuration, configurationOf gives it a `primary`.
  const config = configurationOf(documentOf(ref, info)) as Record<string, unknown>
  const value =
    key.section === 'primary'
      ? config.primary
      : (config[key.section] as Record<string, unknown>)[String(key.clientId)]
  return value as RememberedConfig | undefined
}

/** A view holding what a remembered configuration says, for the reducers to change. */
export function viewOfConfig(ref: ProcessRef, config: RememberedConfig): ProcessView {
  if (ref.kind === 'primary') return { kind: 'primary', status: config as never }
  return { kind: ref.kind, ...config }
}

/**
 * A remembered configuration after changes the process confirmed, made with the view's reducers.
 * A component started under a name the configuration already has replaces it: the process had
 * none by that name, so the client meant this one.
 */
export function withChanges(
  ref: ProcessRef,
  config: RememberedConfig,
  changes: readonly Change[],
): RememberedConfig | undefined {
  let view = viewOfConfig(ref, config)
  const apply = (change: Change) => {
    const next = nextView(view, change, Date.now())
    if (next.ok) view = next.value
  }
  for (const change of changes) {
    if (change.kind === 'component.start') apply({ kind: 'component.stop', name: change.name })
    apply(change)
  }
  return configOfView(ref, view)
}
