// The one grammar of what becomes a command token: port ids, component names, cores, MACs, vlans.
import * as v from 'valibot'
import type { Capability } from './release.ts'

// Every value here becomes one token of a space-separated process command: each schema admits only
// strings that cannot split, extend or escape that token (no spaces, signs, leading zeros, quotes).

export type Dir = 'rx' | 'tx'
/** The vlan suffix of a vf `port add`: set a tag, or strip one. */
export type VlanTag = { operation: 'add'; id: number; pcp: number } | { operation: 'del' }

const INDEX = '(?:0|[1-9][0-9]{0,4})'
/**
 * A port type a use takes, and the capability it needs (none: every release has it); `fixed`:
 * the port types that are always there, which this use must not name (said as such).
 */
type PortRule = {
  types: Record<string, Capability | null>
  max: number
  queues?: Capability
  fixed?: 'phy'
}
/** Why a port add or del must not name a phy port: its process has it from the start. */
const FIXED =
  'phy ports are always there: they are patched (PUT .../patches), never added or deleted'
const nfvTypes = { ring: null, vhost: null, pcap: null, nullpmd: null }
/** The port ids each use takes (spp-protocol.md §5, spp-protocol-2020 §2.3, §2.4). */
export const PORT_USES = {
  /** nfv add/del: never phy (it always exists; `add phy` corrupts the port table), tap or pipe. */
  nfvPort: { types: { ...nfvTypes, memif: 'memif' }, max: 65535, fixed: 'phy' },
  /** nfv patches may name physical ports too, and a queue of one. */
  nfvPatch: {
    types: { phy: null, ...nfvTypes, memif: 'memif', tap: 'tap' },
    max: 65535,
    queues: 'phyQueues',
  },
  /** vf and mirror index a 32-entry port table without a bounds check. */
  vfPort: { types: { phy: null, vhost: null, ring: null }, max: 31, queues: 'phyQueues' },
  /** primary add/del: the types it can create (phy, tap or anything else corrupt its slot 0). */
  primaryPort: { types: { ...nfvTypes, memif: 'memif', pipe: 'pipe' }, max: 65535, fixed: 'phy' },
  primaryPatch: {
    types: { phy: null, ...nfvTypes, memif: 'memif', pipe: 'pipe', tap: 'tap' },
    max: 65535,
    queues: 'phyQueues',
  },
  ring: { types: { ring: null }, max: 65535 },
} as const satisfies Record<string, PortRule>
export type PortUse = keyof typeof PORT_USES

const QUEUE = /^phy:\d+nq/
/** The capability a port id needs in a use, if any: memif, a queue of a phy port, ... */
export function portNeeds(use: PortUse, port: string): Capability | undefined {
  const rule: PortRule = PORT_USES[use]
  if (QUEUE.test(port)) return rule.queues
  return rule.types[port.slice(0, port.indexOf(':'))] ?? undefined
}

const grammars = new Map<string, v.GenericSchema<unknown, string>>()
/**
 * The port ids of a use, as the releases `has` allows take them (all of them by default: the
 * grammar of every release). A 400 names the types; only the wire spelling `phy:0nq1` of a queue.
 */
export function portId(use: PortUse, has: (cap: Capability) => boolean = () => true) {
  const rule: PortRule = PORT_USES[use]
  const types = Object.entries(rule.types).flatMap(([t, cap]) => (!cap || has(cap) ? [t] : []))
  const queues = rule.queues !== undefined && has(rule.queues)
  const key = `${use} ${types.join()} ${queues}`
  let schema = grammars.get(key)
  if (schema) return schema
  const queue = queues ? `|phy:${INDEX}nq${INDEX}` : ''
  const words = `TYPE one of ${types.join(', ')} and N a decimal integer without sign or leading zeros`
  const fixed = rule.fixed
  schema = v.pipe(
    v.string('expected a port id string TYPE:N'),
    v.check((id) => fixed === undefined || !id.startsWith(`${fixed}:`), FIXED),
    v.regex(
      new RegExp(`^(?:(?:${types.join('|')}):${INDEX}${queue})$`),
      `expected TYPE:N with ${words}${queues ? ', or phy:NnqQ for queue Q' : ''}`,
    ),
    v.check(
      (id) => Number(/:(\d+)/.exec(id)?.[1]) <= rule.max,
      `port index must be 0 to ${rule.max}`,
    ),
  )
  grammars.set(key, schema)
  return schema
}

/** A queue as a 2020 process lists it (`phy:0 nq 1`), spelled as its commands take it (`phy:0nq1`). */
export const wire = (port: string) => port.replace(' nq ', 'nq')
/** A port as a process lists it in a status: a 2020 one's memif ports, its queues `phy:0 nq 1`. */
export const listedPort = (use: PortUse) =>
  v.union(
    [
      portId(use, (cap) => cap === 'memif'),
      v.pipe(v.string(), v.regex(/^phy:\d{1,5} nq \d{1,5}$/)),
    ],
    'expected a port id TYPE:N (or phy:N nq Q as a 2020 process lists it)',
  )
/** A port id's type and index (`ring:3` -> ring, 3); NaN for an index it does not have. */
export const portParts = (port: string) => {
  const colon = port.indexOf(':')
  return { type: port.slice(0, colon), index: Number(port.slice(colon + 1)) }
}

const integer = (what: string, min: number, max: number) =>
  v.pipe(
    v.number(`expected ${what}: an integer ${min} to ${max}`),
    v.integer(`expected ${what}: an integer ${min} to ${max}`),
    v.minValue(min, `expected ${what}: an integer ${min} to ${max}`),
    v.maxValue(max, `expected ${what}: an integer ${min} to ${max}`),
  )

/** A client id in its one canonical spelling (not `-0` nor `01`), as a path segment takes it. */
export const CLIENT_ID_PATTERN = '(?:0|-?[1-9][0-9]{0,4})'
/** A client id as a topology document keys it. */
export const ClientIdKey = v.pipe(
  v.string(),
  v.regex(/^(?:0|[1-9][0-9]{0,4})$/, 'expected a client id: a decimal integer'),
)
export const ComponentName = v.pipe(
  v.string('expected a component name string'),
  v.regex(
    /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,30}$/,
    'expected 1 to 31 characters of A-Z a-z 0-9 _ . - not starting with . or -',
  ),
)
/** A core (lcore) id as a component start takes it. */
export const Core = integer('a core id', 0, 127)
export const VlanId = integer('a vlan id', 0, 4095)
export const Pcp = integer('a vlan pcp', 0, 7)
export const DirToken = v.picklist(['rx', 'tx'], 'expected rx or tx')
/** A classifier MAC: canonical hex pairs, or `default`. */
export const Mac = v.pipe(
  v.string('expected a MAC address string'),
  v.regex(
    /^(?:(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}|default)$/,
    'expected xx:xx:xx:xx:xx:xx in hex, or default',
  ),
)

// A vlan object: `{}`, null or absent mean no vlan operation; id and pcp count only for `add`
// (SPP's CLI sends "id": "none" with `none` and `del`).
const VlanOperation = v.variant(
  'operation',
  [
    v.object({ operation: v.literal('add'), id: VlanId, pcp: Pcp }),
    v.object({ operation: v.picklist(['del', 'none']) }),
  ],
  'expected add, del or none',
)
/** A vf port's vlan object: no operation (absent, null, {}, none), add a tag, or strip one. */
export const OptionalVlan = v.nullish(
  v.pipe(
    v.record(v.string(), v.unknown(), 'expected a vlan object or null'),
    v.transform((vlan) => (Object.keys(vlan).length === 0 ? undefined : vlan)),
    v.optional(VlanOperation),
    v.transform((vlan): VlanTag | undefined =>
      vlan?.operation === 'add'
        ? vlan
        : vlan?.operation === 'del'
          ? { operation: 'del' }
          : undefined,
    ),
  ),
)
