// The vf's and mirror's status reply, byte for byte as the real processes build it.
import type { VfRules } from './vf-rules.ts'
import { familyOf, type VfState, type Worker } from './vf-state.ts'
import { DEFAULT_MAC, UNTAGGED, type Dir } from './vf-tokens.ts'
import { jsonArray, jsonObject, jsonString } from './wire.ts'

const NO_VLAN = { operation: 'none', id: 0, pcp: 0 }

/** The tables of the classifiers the lcores run, by vid, default entry first. */
export function classifierEntries(state: VfState): string[] {
  return [...state.lcores.values()]
    .flatMap((lcore) => lcore.applied.map((id) => state.workers.get(id)))
    .flatMap((worker) => (worker && familyOf(worker.type) === 'classifier' ? worker.table : []))
    .sort((a, b) => a.vid - b.vid || Number(b.mac === DEFAULT_MAC) - Number(a.mac === DEFAULT_MAC))
    .map(({ port, vid, mac }) =>
      jsonObject([
        ['type', jsonString(vid === UNTAGGED ? 'mac' : 'vlan')],
        ['value', jsonString(vid === UNTAGGED ? mac : `${vid}/${mac}`)],
        ['port', jsonString(port)],
      ]),
    )
}

/**
 * The `core` entries of a status reply: one per idle lcore, one per component an lcore runs, from
 * its worker. Which worker a status reads is decided from the lcore's type (18.11) or from the
 * component's own record (2020); when that worker does not run it (a component stopped but not
 * flushed yet, say), SPP cannot make the status, and sends none: undefined.
 */
export function coreEntries(state: VfState, rules: VfRules): string[] | undefined {
  const port = (worker: Worker, dir: Dir) => (p: string) => {
    const vlan = worker.vlans.get(`${p} ${dir}`) ?? NO_VLAN
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
  const entries: string[] = []
  for (const core of state.cores) {
    const lcore = state.lcores.get(core)!
    if (lcore.applied.length === 0)
      entries.push(
        jsonObject([
          ['core', String(core)],
          ['type', jsonString('unuse')],
        ]),
      )
    for (const id of lcore.applied) {
      const asked = rules.status2020 ? state.components[id]?.type : lcore.appliedType
      const family = state.kind === 'mirror' ? 'mirror' : familyOf(asked)
      const worker = state.workers.get(id)
      if (!worker || familyOf(worker.type) !== family) return undefined
      const rx = worker.type === 'classifier_mac' ? worker.rx.slice(0, 1) : worker.rx
      entries.push(
        jsonObject([
          ['core', String(core)],
          ['name', jsonString(worker.name)],
          ['type', jsonString(worker.type)],
          ['rx_port', jsonArray(rx.map(port(worker, 'rx')))],
          ['tx_port', jsonArray(worker.tx.map(port(worker, 'tx')))],
        ]),
      )
    }
  }
  return entries
}

/**
 * The `info` member of a status reply: ports, one entry per core (or component), classifiers. A
 * 2020 one lists indexes as strings (one per queue of a multi-queue phy port) and `master-lcore`.
 */
export function renderInfo(state: VfState, rules: VfRules): string | undefined {
  const cores = coreEntries(state, rules)
  if (!cores) return undefined
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
    ['vhost', indexes(state.createdOf('vhost'))],
    ['ring', indexes(state.createdOf('ring'))],
    ...(rules.status2020 ? [['master-lcore', String(state.mainCore)] as [string, string]] : []),
    ['core', jsonArray(cores)],
  ]
  if (state.kind === 'vf') members.push(['classifier_table', jsonArray(classifierEntries(state))])
  return jsonObject(members)
}
