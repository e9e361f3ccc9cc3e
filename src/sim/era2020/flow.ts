// The 2020 primary's `flow` commands (spp-protocol-2020 §4.7): rules per port, their replies.
import { parseCNumber } from '../wire.ts'

export type Field = { spec?: number | string; last?: number | string; mask?: number | string }
export type Item = { type: 'eth' | 'vlan'; fields: Map<string, Field> }
type Action = { type: string; conf: Record<string, number | string> | null }
/** One rule as `flow create` stored it. */
export type Rule = { id: number; attr: Record<string, number>; items: Item[]; actions: Action[] }

const FIELDS = { eth: ['dst', 'src', 'type'], vlan: ['tci', 'pcp', 'dei', 'vid', 'inner_type'] }
const MAC = /^([0-9a-fA-F]{1,2}:){5}[0-9a-fA-F]{1,2}$/
const ACTIONS: Record<string, [string, string] | null> = {
  jump: ['group', 'group'],
  queue: ['index', 'index'],
  of_pop_vlan: null,
  of_push_vlan: ['ethertype', 'ethertype'],
  of_set_vlan_vid: ['vlan_vid', 'vlan_vid'],
  of_set_vlan_pcp: ['vlan_pcp', 'vlan_pcp'],
}
const WIDTH: Record<string, number> = {
  dst: 48,
  src: 48,
  type: 16,
  tci: 16,
  pcp: 3,
  dei: 1,
  vid: 12,
  inner_type: 16,
}
class Invalid extends Error {}
const invalid = (): never => {
  throw new Invalid()
}
const num = (token: string | undefined) => {
  const n = parseCNumber(token)
  return Number.isInteger(n) ? n : invalid()
}

/** `prefix N`: the top N bits of the field set in its mask (a MAC as text). */
function prefixMask(name: string, bits: number): number | string {
  const width = WIDTH[name]!
  if (bits < 0 || bits > width) return invalid()
  if (width !== 48) return (2 ** bits - 1) * 2 ** (width - bits)
  const byte = (i: number) => (0xff00 >> Math.max(0, Math.min(8, bits - 8 * i))) & 0xff
  return Array.from({ length: 6 }, (_, i) => byte(i).toString(16)).join(':')
}

/** Parses `[group N] [priority N] [transfer] ingress|egress pattern … / end actions … / end`. */
function parseRule(tokens: string[]): Omit<Rule, 'id'> {
  const attr = { group: 0, priority: 0, ingress: 0, egress: 0, transfer: 0 }
  let at = 0
  const next = () => tokens[at++] ?? invalid()
  for (let word = next(); word !== 'pattern'; word = next()) {
    if (word === 'group' || word === 'priority') attr[word] = num(next())
    else if (word === 'transfer' || word === 'ingress' || word === 'egress') attr[word] = 1
    else invalid()
  }
  const items: Item[] = []
  for (let word = next(); word !== 'end'; word = next()) {
    if (word !== 'eth' && word !== 'vlan') return invalid()
    const item: Item = { type: word, fields: new Map() }
    for (let name = next(); name !== '/'; name = next()) {
      if (!FIELDS[item.type].includes(name)) invalid()
      const how = next()
      const mac = (name === 'src' || name === 'dst') && how !== 'prefix'
      const value = mac ? next() : num(next())
      if (typeof value === 'string' && !MAC.test(value)) invalid()
      const field = item.fields.get(name) ?? {}
      if (how === 'is') Object.assign(field, { spec: value, mask: -1 })
      else if (how === 'spec' || how === 'last' || how === 'mask') field[how] = value
      else if (how === 'prefix') field.mask = prefixMask(name, Number(value))
      else invalid()
      item.fields.set(name, field)
    }
    items.push(item)
  }
  if (next() !== 'actions') invalid()
  const actions: Action[] = []
  for (let word = next(); word !== 'end'; word = next()) {
    const shape = ACTIONS[word]
    if (shape === undefined) return invalid()
    if (shape && next() !== shape[0]) invalid()
    actions.push({ type: word, conf: shape && { [shape[1]]: num(next()) } })
    if (next() !== '/') invalid()
  }
  if (at !== tokens.length || (attr.ingress === 0 && attr.egress === 0)) invalid()
  return { attr, items, actions }
}

const reply = (result: string, message: string, extra = '') =>
  `{"result": "${result}", "message": "${message}"${extra}}`

/** What DPDK says of a port whose driver has no rte_flow (ENOSYS), in SPP's words (`\\n` as sent). */
const unsupported = (what: string) =>
  `${what} error\\nerror type: 1 (Cause unspecified)\\nerror message: Function not implemented\\nrte_errno: Function not implemented`

/**
 * Runs one `flow …` command against the rules of each port; returns the reply text. On ports
 * without rte_flow (`supported` false: net_null, say) SPP still parses and checks what it can
 * alone, then DPDK refuses; a refused flush still empties SPP's list.
 */
export function runFlow(tokens: string[], rules: Rule[][], supported = true): string {
  const [, sub, port = '', ...rest] = tokens
  const match = /^phy:([0-9]+)$/.exec(port)
  if (!match || tokens.length > 47) return reply('error', 'Flow command invalid argument')
  const id = Number(match[1])
  const list = rules[id]
  if (sub === 'destroy' && rest.length === 1) {
    if (!list) return reply('error', `Invalid port ${id}`)
    if (rest[0] === 'ALL') {
      list.splice(0)
      return supported
        ? reply('success', 'Flow rule all destroyed')
        : reply('error', unsupported('Flow destroy'))
    }
    const ruleId = parseInt(rest[0]!, 10) || 0 // strtoul, no end check: `abc` is rule 0
    const at = list.findIndex((r) => r.id === ruleId)
    if (at === -1) return reply('error', `Flow rule #${ruleId} not found`)
    list.splice(at, 1)
    return reply('success', `Flow rule #${ruleId} destroyed`)
  }
  if ((sub !== 'validate' && sub !== 'create') || !list)
    return reply('error', 'Flow command invalid argument')
  let rule: Omit<Rule, 'id'>
  try {
    rule = parseRule(rest)
  } catch (error) {
    if (error instanceof Invalid) return reply('error', 'Flow command invalid argument')
    throw error
  }
  if (!supported)
    return sub === 'validate'
      ? reply('error', unsupported('Flow validate'))
      : reply('error', unsupported('Flow create'), ', "rule_id": ""')
  if (sub === 'validate') return reply('success', 'Flow rule validated')
  const ruleId = list.length === 0 ? 0 : list.at(-1)!.id + 1
  list.push({ id: ruleId, ...rule })
  return reply('success', `Flow rule #${ruleId} created`, `, "rule_id": "${ruleId}"`)
}
