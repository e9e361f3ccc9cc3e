// The vf and mirror decoders, token by token, with the real processes' rules and messages.
import { RULES_18_11, type VfRules } from './vf-rules.ts'
import { deviceOf, type Vlan, type VfState } from './vf-state.ts'
import { parseCNumber } from './wire.ts'
import { parseMac, parsePort, reject, UNTAGGED, type Dir } from './vf-tokens.ts'

// Every decoder rejects in 18.11's words; the model says them in its release's (VfRules.text).

/** What a change does: `done` (then the reply is success), or `hang` (no reply, ever). */
export type Outcome = 'done' | 'hang'

/** `component start NAME CORE TYPE` and `component stop NAME` (§4.6.1), in a release's rules. */
export function component(state: VfState, tokens: string[], rules = RULES_18_11): Outcome {
  if (tokens.length < 3 || tokens.length > 5) reject('bad message format')
  const [, action, name = ''] = tokens
  const { components, lcores } = state
  if (action !== 'start' && action !== 'stop') return reject('bad value(action)')
  if (action === 'stop') {
    state.execute(() => {
      const c = state.byName(name)
      if (!c) return // stopping an unknown name succeeds
      components[c.id] = undefined
      const lcore = lcores.get(c.core)!
      lcore.pending = lcore.pending.filter((id) => id !== c.id)
      if (lcore.pending.length === 0) lcore.type = undefined
      state.untouch(c.id, c.core)
    })
    return 'done'
  }
  const started = state.started
  if (name.length > 110 || state.byName(name)) reject('bad value(component name)')
  const core = parseCNumber(tokens[3])
  if (!(core >= 0 && core < 128)) reject('bad value(core)')
  const type = tokens[4] ?? ''
  if (!rules.types[state.kind].includes(type)) reject('bad value(component type)')
  if (!rules.mixesTypes && started.some((c) => c.core === core && c.type !== type))
    reject('bad value(component type)')
  if (core === state.mainCore) return 'hang' // waits forever for a worker that does not exist
  if (!state.cores.includes(core) || started.length >= 128) reject('error occur')
  // A second classifier on one core passes every check, then the process waits for it forever.
  if (type === rules.classifier && started.some((c) => c.core === core && c.type === type))
    return 'hang'
  state.execute(() => {
    let id = 0
    while (components[id]) id++
    components[id] = { id, name, type, core, pending: { rx: [], tx: [] } }
    const lcore = lcores.get(core)!
    lcore.pending.push(id)
    lcore.type = type
    state.touch(id, core)
  })
  return 'done'
}

/** The vlan suffix of `port add`: `add_vlantag VID PCP` or `del_vlantag`. */
export function vlanOf(operation: string, vid: string | undefined, pcp: string | undefined): Vlan {
  if (operation === 'del_vlantag') return { operation: 'del', id: 0, pcp: 0 }
  if (operation !== 'add_vlantag') return reject('bad value(port vlan operation)')
  const id = parseCNumber(vid)
  if (!(id >= 0 && id <= 4095)) reject('bad value(port vid)')
  const priority = parseCNumber(pcp)
  if (!(priority >= 0 && priority <= 7)) reject('bad value(port pcp)')
  return { operation: 'add', id, pcp: priority }
}

const MAX_ETHPORTS = 32

/**
 * A port token as the process keeps it: 18.11 as written; 2020 as its status spells it (`phy:0`,
 * `phy:0 nq 1`), with the `nq` form required exactly for a phy port of more than one queue.
 */
function portOf(state: VfState, token: string, rules: VfRules) {
  if (!rules.queues)
    return parsePort(token) ? { port: token, queue: 0, queues: 1 } : reject('bad value(port)')
  const [, type, rest = ''] = /^(phy|vhost|ring):(.+)$/.exec(token) ?? reject('bad value(port)')
  const [index = '', queue] = type === 'phy' ? rest.split('nq') : [rest]
  const n = parseCNumber(index)
  if (!Number.isInteger(n)) reject('bad value(port)')
  if (type !== 'phy') return { port: `${type}:${n}`, queue: 0, queues: 1 }
  if (n < 0 || n > MAX_ETHPORTS) reject('bad value(port)') // 32 itself passes
  const queues = state.queues[n] ?? 1
  if (queues > 1 !== (queue !== undefined)) reject('bad value(port)')
  if (queue === undefined) return { port: `phy:${n}`, queue: 0, queues }
  const q = parseCNumber(queue)
  if (!Number.isInteger(q)) reject('bad value(port)')
  return { port: `phy:${n} nq ${q}`, queue: q, queues }
}

/** `port add|del PORT DIR NAME [add_vlantag VID PCP | del_vlantag]` (§4.6.2; 2020: §6.5). */
export function port(state: VfState, tokens: string[], rules = RULES_18_11): Outcome {
  if (tokens.length < 5 || tokens.length > 8) reject('bad message format')
  const [, action, token = '', dir = '', name = '', vlanOperation, vid, pcp] = tokens
  if (action !== 'add' && action !== 'del') return reject('bad value(action)')
  const full = tokens.length === 8 // the add_vlantag form skips the "in use" checks
  const { port, queue, queues } = portOf(state, token, rules)
  const users = (d: Dir) => state.started.filter((c) => c.pending[d].includes(port))
  if (action === 'add' && !full && users('rx').length > 0 && users('tx').length > 0)
    reject('bad value(port)')
  if (dir !== 'rx' && dir !== 'tx') return reject('bad value(port rxtx)')
  if (queue >= queues) reject('bad value(port rxtx)') // beyond the port's rx or tx queues
  if (action === 'add' && !full && users(dir).length > 0) reject('bad value(port rxtx)')
  const component = state.byName(name) ?? reject('bad value(component name)')
  const vlan = vlanOperation === undefined ? undefined : vlanOf(vlanOperation, vid, pcp)
  const key = `${port} ${dir}`
  const { vlans } = state
  state.execute(() => {
    const ports = component.pending[dir]
    if (action === 'del') {
      vlans.delete(key)
      component.pending[dir] = ports.filter((p) => p !== port)
      return state.touch(component.id)
    }
    const limit = rules.earlyLimits?.[component.type]?.[dir] ?? Infinity
    if (ports.length >= limit) reject('error occur') // 2020 counts first
    if (ports.includes(port)) {
      if (vlans.get(key)?.operation !== 'add') reject('error occur')
      vlans.set(key, vlan!)
      return state.touch(component.id)
    }
    if (ports.length >= rules.maxPending) reject('error occur')
    if (vlan) vlans.set(key, vlan)
    state.know(port)
    ports.push(port)
    state.touch(component.id)
  })
  return 'done'
}

/** `classifier_table add|del mac MAC PORT` and `... vlan VID MAC PORT` (§4.6.3). */
export function classifierTable(state: VfState, tokens: string[]): Outcome {
  if (tokens.length !== 5 && tokens.length !== 6) reject('bad message format')
  const [, action, type] = tokens
  if (action !== 'add' && action !== 'del') return reject('bad value(action)')
  if (type !== 'mac' && type !== 'vlan') return reject('bad value(type)')
  const withVid = tokens.length === 6
  const vid = type === 'mac' ? UNTAGGED : withVid ? parseCNumber(tokens[3]) : 0
  if (withVid && !(parseCNumber(tokens[3]) >= 0 && parseCNumber(tokens[3]) <= 4095))
    reject('bad value(vlan id)')
  const mac = parseMac(tokens[withVid ? 4 : 3] ?? '')
  const port = tokens[withVid ? 5 : 4] ?? ''
  const device = deviceOf(port)
  if (!state.isKnown(port)) reject('bad value(port)')
  const entry = state.ifaces.get(device)!.classified
  if (action === 'add' && entry) reject('bad value(port)')
  if (action === 'del' && (entry?.vid !== vid || entry.mac !== mac)) reject('bad value(port)')
  state.execute(() => {
    state.ifaces.get(device)!.classified = action === 'add' ? { vid, mac } : undefined
    // The component that sends to the port takes the new entry at the flush.
    const user = state.started.find((c) => c.pending.tx.some((p) => deviceOf(p) === device))
    if (user) state.touch(user.id)
  })
  return 'done'
}
