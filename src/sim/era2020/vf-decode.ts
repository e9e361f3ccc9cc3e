// The 2020 vf and mirror decoders for what changed since 18.11 (spp-protocol-2020 §6, §7).
import {
  component as component1811,
  vlanOf,
  type ComponentRules,
  type Outcome,
} from '../vf-decode.ts'
import type { VfState } from '../vf-state.ts'
import { reject, type Dir } from '../vf-tokens.ts'
import { parseCNumber } from '../wire.ts'

/** Port limits per direction, now checked before a port is added (forward, merge, classifier). */
const SHAPES: Record<string, Record<Dir, number>> = {
  forward: { rx: 1, tx: 1 },
  merge: { rx: 1024, tx: 1 },
  classifier: { rx: 1, tx: 1024 },
  mirror: { rx: 1, tx: 2 },
}
const MAX_ETHPORTS = 32

/** A vf or mirror that knows how many queues each physical port has. */
export type QueuedState = VfState & { readonly queues: number[] }

/** The 18.11 texts of the reused decoders, in the 2020 dialect (§6.3). */
export const dialect = (message: string) =>
  message === 'bad message format'
    ? 'Wrong message format'
    : message.replace(/^bad value\((.*)\)$/, 'Invalid value ($1)')

/** A port token as its status spelling (`phy:0`, `phy:0 nq 1`, `ring:3`), with its queue. */
function portOf(state: QueuedState, token: string) {
  const match = /^(phy|vhost|ring):(.+)$/.exec(token) ?? reject('Invalid value (port)')
  const [, type, rest = ''] = match
  const [index = '', queue] = type === 'phy' ? rest.split('nq') : [rest]
  const n = parseCNumber(index)
  if (!Number.isInteger(n)) reject('Invalid value (port)')
  if (type !== 'phy') return { spelled: `${type}:${n}`, queue: 0, queues: 1 }
  if (n < 0 || n > MAX_ETHPORTS) reject('Invalid value (port)') // 32 itself passes
  const queues = state.queues[n] ?? 1
  if (queues > 1 !== (queue !== undefined)) reject('Invalid value (port)')
  if (queue === undefined) return { spelled: `phy:${n}`, queue: 0, queues }
  const q = parseCNumber(queue)
  if (!Number.isInteger(q)) reject('Invalid value (port)')
  return { spelled: `phy:${n} nq ${q}`, queue: q, queues }
}

/** 2020: `classifier`, `Invalid value (...)`, and one core may mix types (§6.2, §6.3). */
const RULES_2020: ComponentRules = {
  types: { vf: ['classifier', 'merge', 'forward'], mirror: ['mirror'] },
  classifier: 'classifier',
  mixesTypes: true,
  text: dialect,
}

/** `component start NAME CORE TYPE` and `component stop NAME`, in the 2020 rules. */
export const component = (state: QueuedState, tokens: string[]): Outcome =>
  component1811(state, tokens, RULES_2020)

/** `port add|del PORT DIR NAME [add_vlantag VID PCP | del_vlantag]` with queues and early limits. */
export function port(state: QueuedState, tokens: string[]): Outcome {
  if (tokens.length < 5 || tokens.length > 8) reject('Wrong message format')
  const [, action, token = '', dir = '', name = '', vlanOperation, vid, pcp] = tokens
  if (action !== 'add' && action !== 'del') return reject('Invalid value (action)')
  const full = tokens.length === 8 // the add_vlantag form skips the "in use" checks
  const { spelled: port, queue, queues } = portOf(state, token)
  const users = (d: Dir) => state.components.filter((c) => c.pending[d].includes(port))
  if (action === 'add' && !full && users('rx').length > 0 && users('tx').length > 0)
    reject('Invalid value (port)')
  if (dir !== 'rx' && dir !== 'tx') return reject('Invalid value (port rxtx)')
  if (queue >= queues) reject('Invalid value (port rxtx)') // beyond the port's rx or tx queues
  if (action === 'add' && !full && users(dir).length > 0) reject('Invalid value (port rxtx)')
  const component =
    state.components.find((c) => c.name === name) ?? reject('Invalid value (component name)')
  const vlan = vlanOperation === undefined ? undefined : vlanOf(vlanOperation, vid, pcp)
  const key = `${port} ${dir}`
  state.execute(() => {
    const ports = component.pending[dir]
    if (action === 'del') {
      state.vlans.delete(key)
      component.pending[dir] = ports.filter((p) => p !== port)
      return
    }
    if (ports.includes(port)) {
      if (state.vlans.get(key)?.operation !== 'add') reject('error occur')
      state.vlans.set(key, vlan!)
      return
    }
    if (ports.length >= SHAPES[component.type]![dir]) reject('error occur') // nothing pending
    if (vlan) state.vlans.set(key, vlan)
    ports.push(port)
  })
  return 'done'
}
