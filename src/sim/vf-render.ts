// The vf's and mirror's status reply, byte for byte as the real processes build it.
import type { VfRules } from './vf-rules.ts'
import type { VfState } from './vf-state.ts'
import { DEFAULT_MAC, UNTAGGED, type Dir } from './vf-tokens.ts'
import { jsonArray, jsonObject, jsonString } from './wire.ts'

const NO_VLAN = { operation: 'none', id: 0, pcp: 0 }

/** Only entries on a tx port of a running classifier are shown, by vid, default entry first. */
export function classifierEntries(state: VfState): string[] {
  return state.components
    .filter((c) => c.type === 'classifier_mac' || c.type === 'classifier')
    .flatMap((c) =>
      c.applied.tx.flatMap((port) =>
        state.classifier.has(port) ? [{ port, ...state.classifier.get(port)! }] : [],
      ),
    )
    .sort((a, b) => a.vid - b.vid || Number(b.mac === DEFAULT_MAC) - Number(a.mac === DEFAULT_MAC))
    .map(({ port, vid, mac }) =>
      jsonObject([
        ['type', jsonString(vid === UNTAGGED ? 'mac' : 'vlan')],
        ['value', jsonString(vid === UNTAGGED ? mac : `${vid}/${mac}`)],
        ['port', jsonString(port)],
      ]),
    )
}

/** The `core` entries of a status reply: one per idle core, one per component on a busy one. */
export function coreEntries(state: VfState): string[] {
  const port = (dir: Dir) => (p: string) => {
    const vlan = state.vlans.get(`${p} ${dir}`) ?? NO_VLAN
    const vlanJson = jsonObject([
      ['operation', jsonString(vlan.operation)],
      ['id', String(vlan.id)],
      ['pcp', String(vlan.pcp)],
    ])
    return jsonObject([
      ['port', jsonString(p)],
      ['vlan', vlanJson],
    ])
  }
  return state.cores.flatMap((core) => {
    const here = state.components.filter((c) => c.core === core)
    if (here.length === 0)
      return [
        jsonObject([
          ['core', String(core)],
          ['type', jsonString('unuse')],
        ]),
      ]
    return here.map((c) => {
      const rx = c.type === 'classifier_mac' ? c.applied.rx.slice(0, 1) : c.applied.rx
      return jsonObject([
        ['core', String(core)],
        ['name', jsonString(c.name)],
        ['type', jsonString(c.type)],
        ['rx_port', jsonArray(rx.map(port('rx')))],
        ['tx_port', jsonArray(c.applied.tx.map(port('tx')))],
      ])
    })
  })
}

/**
 * The `info` member of a status reply: ports, one entry per core (or component), classifiers. A
 * 2020 one lists indexes as strings (one per queue of a multi-queue phy port) and `master-lcore`.
 */
export function renderInfo(state: VfState, rules: VfRules): string {
  const cores = coreEntries(state)
  const index = rules.status2020 ? (n: number | string) => jsonString(String(n)) : String
  const indexes = (set: Iterable<number>) => jsonArray([...set].sort((a, b) => a - b).map(index))
  const phy = state.phy.flatMap((n) => {
    const queues = state.queues[n] ?? 1
    if (queues <= 1) return [index(n)]
    return Array.from({ length: queues }, (_, q) => index(`${n} nq ${q}`))
  })
  const members: [string, string][] = [
    ['client-id', String(state.clientId)],
    ['phy', jsonArray(phy)],
    ['vhost', indexes(state.created.vhost)],
    ['ring', indexes(state.created.ring)],
    ...(rules.status2020 ? [['master-lcore', String(state.mainCore)] as [string, string]] : []),
    ['core', jsonArray(cores)],
  ]
  if (state.kind === 'vf') members.push(['classifier_table', jsonArray(classifierEntries(state))])
  return jsonObject(members)
}
