// Live and desired vf/mirror state in one comparable shape: components, port uses, classifier entries.
import type { ComponentEntry, PortObject } from '../protocol/bodies.ts'
import { specType } from '../protocol/release.ts'
import type { VlanTag } from '../protocol/tokens.ts'
import type { DesiredVf } from './document.ts'

/** A port attached in one direction, with its vlan setting (none: undefined). */
export type PortUse = { port: string; vlan?: VlanTag }
/** A named component, its ports per direction. */
export type Component = { name: string; core: number; type: string; rx: PortUse[]; tx: PortUse[] }
/** A classifier entry: one per port; `mac` entries carry vid 4095. */
export type Entry = { port: string; vid: number; mac: string }
/** The vid of an untagged (`mac`) classifier entry. */
export const UNTAGGED = 4095
type VlanAdd = Extract<VlanTag, { operation: 'add' }>

const vlanOf = (
  vlan: PortObject['vlan'] | { operation?: string } | null | undefined,
): VlanTag | undefined =>
  vlan?.operation === 'add'
    ? { operation: 'add', id: (vlan as VlanAdd).id, pcp: (vlan as VlanAdd).pcp }
    : vlan?.operation === 'del'
      ? { operation: 'del' }
      : undefined
/** `ring:0` or `ring:0 (add vlan 100 pcp 3)`: a port use as a user reads it, and its identity. */
export const useText = ({ port, vlan }: PortUse) =>
  vlan === undefined
    ? port
    : vlan.operation === 'del'
      ? `${port} (del vlan)`
      : `${port} (add vlan ${vlan.id} pcp ${vlan.pcp})`

/** The named components of a live status or a desired list (unuse entries left out). */
export function componentsOf(
  entries: readonly (ComponentEntry | { type: 'unuse' } | DesiredComponent)[],
): Component[] {
  return entries.flatMap((entry) =>
    'name' in entry && entry.name !== undefined && 'core' in entry
      ? [
          {
            name: entry.name,
            core: entry.core,
            // One vocabulary: a 2020 vf's `classifier` is planned as `classifier_mac`, and the
            // vf route sends it back in the vf's own word.
            type: specType(entry.type),
            rx: (entry.rx_port ?? []).map(({ port, vlan }) => ({ port, vlan: vlanOf(vlan) })),
            tx: (entry.tx_port ?? []).map(({ port, vlan }) => ({ port, vlan: vlanOf(vlan) })),
          },
        ]
      : [],
  )
}
type DesiredComponent = Extract<NonNullable<DesiredVf['components']>[number], { name: string }>

/** A classifier entry of a status (`FA:..`, `100/FA:..`) or of a desired document. */
export function entryOf({ type, value, port }: { type: string; value: string; port: string }) {
  const [vid, mac] = type === 'vlan' ? value.split('/') : [String(UNTAGGED), value]
  const upper = mac === 'default' ? mac : (mac ?? '').toUpperCase()
  return { port, vid: Number(vid), mac: upper }
}
