// One process's configuration, as remembered: taken from the controller's view of it, or changed by
// a command's effect through the view's own reducers. Pure.
import type { Change } from '../protocol/effects.ts'
import { kindOfSection, PRIMARY, SECTIONS, type ProcessId } from '../protocol/process-id.ts'
import type { ProcessKey, RememberedConfig } from '../store/store.ts'
import { nextView, type ProcessView } from '../state/process-view.ts'
import { configurationOf } from './configuration.ts'
import type { DesiredDocument } from './document.ts'
import type { TopologyDocument } from './read-topology.ts'

/** Where the store keeps a process's configuration (a pcap has none to keep). */
export function storeKey(id: ProcessId): ProcessKey | undefined {
  if (id.kind === 'primary') return { section: 'primary' }
  if (id.kind === 'pcap') return undefined
  return { section: SECTIONS[id.kind], clientId: id.clientId }
}

/** The process a store key names. */
export const idOfKey = (key: ProcessKey): ProcessId =>
  key.section === 'primary' ? PRIMARY : { kind: kindOfSection(key.section), clientId: key.clientId }

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
export function infoOf(id: ProcessId, view: ProcessView | undefined): object | undefined {
  const clientId = { 'client-id': id.clientId ?? 0 }
  switch (view?.kind) {
    case 'primary':
      return view.status
    case 'nfv': {
      const { status, ports, patches } = view
      return status && ports && patches ? { ...clientId, status, ports, patches } : undefined
    }
    case 'vf':
    case 'mirror': {
      const { components, classifier_table } = view
      if (!components || (view.kind === 'vf' && !classifier_table)) return undefined
      const table = view.kind === 'vf' ? { classifier_table } : {}
      return { ...clientId, ports: view.ports ?? [], components, ...table }
    }
    default:
      return view?.info
  }
}

/** A topology document holding one process's state (and nothing for the others). */
export function documentOf(id: ProcessId, info: object): TopologyDocument {
  const document: TopologyDocument = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
  const key = storeKey(id)
  if (key?.section === 'primary') document.primary = info as TopologyDocument['primary']
  else if (key) (document[key.section] as Record<string, object>)[String(key.clientId)] = info
  return document
}

/**
 * The configuration part of a process's view, as `configurationOf` defines it, or undefined when
 * it has none (a pcap, an 18.11 primary) or the view is not complete.
 */
export function configOfView(id: ProcessId, view: ProcessView | undefined) {
  const key = storeKey(id)
  const info = infoOf(id, view)
  if (!key || !info) return undefined
  // When the planner learns the primary's configuration, configurationOf gives it a `primary`.
  const config = configurationOf(documentOf(id, info)) as Record<string, unknown>
  const value =
    key.section === 'primary'
      ? config.primary
      : (config[key.section] as Record<string, unknown>)[String(key.clientId)]
  return value as RememberedConfig | undefined
}

/** A view holding what a remembered configuration says, for the reducers to change. */
export function viewOfConfig(id: ProcessId, config: RememberedConfig): ProcessView {
  if (id.kind === 'primary') return { kind: 'primary', status: config as never }
  return { kind: id.kind, ...config }
}

/**
 * A remembered configuration after changes the process confirmed, made with the view's reducers.
 * A component started under a name the configuration already has replaces it: the process had
 * none by that name, so the client meant this one.
 */
export function withChanges(
  id: ProcessId,
  config: RememberedConfig,
  changes: readonly Change[],
): RememberedConfig | undefined {
  let view = viewOfConfig(id, config)
  const apply = (change: Change) => {
    const next = nextView(view, change, Date.now())
    if (next.ok) view = next.value
  }
  for (const change of changes) {
    if (change.kind === 'component.start') apply({ kind: 'component.stop', name: change.name })
    apply(change)
  }
  return configOfView(id, view)
}
