// The valibot schemas of request bodies and path segments: each value one safe token of a command.
import * as v from 'valibot'
import type { VlanTag } from '../protocol/kinds/vf.ts'

// Every value here becomes one token of a space-separated process command: each schema admits only
// strings that cannot split, extend or escape that token (no spaces, signs, leading zeros, quotes).

const NFV_PORT_INDEX_MAX = 65535
const VF_PORT_INDEX_MAX = 31 // vf and mirror index a 32-entry port table without a bounds check

const portId = (types: readonly string[], max: number) =>
  v.pipe(
    v.string(`expected a port id string TYPE:N`),
    v.regex(
      new RegExp(`^(?:${types.join('|')}):(?:0|[1-9][0-9]{0,4})$`),
      `expected TYPE:N with TYPE one of ${types.join(', ')} and N a decimal integer without sign or leading zeros`,
    ),
    v.check((id) => Number(id.slice(id.indexOf(':') + 1)) <= max, `port index must be 0 to ${max}`),
  )

/** nfv `add`/`del`: never `phy` (physical ports always exist; `add phy` corrupts the port table). */
export const NfvPort = portId(['ring', 'vhost', 'pcap', 'nullpmd'], NFV_PORT_INDEX_MAX)
/** nfv patches may also name the physical ports. */
export const NfvPatchPort = portId(['phy', 'ring', 'vhost', 'pcap', 'nullpmd'], NFV_PORT_INDEX_MAX)
/** vf and mirror know these three port types only. */
export const VfPort = portId(['phy', 'vhost', 'ring'], VF_PORT_INDEX_MAX)
/** A 19.11 vf or mirror also takes a queue of a multi-queue phy port: `phy:0nq1`. */
export const VfQueuePort = v.union(
  [VfPort, v.pipe(v.string(), v.regex(/^phy:(?:[12]?[0-9]|3[01])nq(?:0|[1-9][0-9]{0,4})$/))],
  'expected TYPE:N with TYPE one of phy, vhost, ring and N 0 to 31, or phy:NnqQ for queue Q',
)

const integer = (what: string, min: number, max: number) =>
  v.pipe(
    v.number(`expected ${what}: an integer ${min} to ${max}`),
    v.integer(`expected ${what}: an integer ${min} to ${max}`),
    v.minValue(min, `expected ${what}: an integer ${min} to ${max}`),
    v.maxValue(max, `expected ${what}: an integer ${min} to ${max}`),
  )

/** Path parameter: a client id is an integer in its one canonical spelling (not `-0` nor `01`). */
export const CLIENT_ID_PATTERN = '(?:0|-?[1-9][0-9]{0,4})'
/** The `/{client_id}` route segment of the secondaries' endpoints. */
export const CLIENT_ID_SEGMENT = `/:client_id{${CLIENT_ID_PATTERN}}`

export const ComponentName = v.pipe(
  v.string('expected a component name string'),
  v.regex(
    /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,30}$/,
    'expected 1 to 31 characters of A-Z a-z 0-9 _ . - not starting with . or -',
  ),
)
/** A core (lcore) id as a component start takes it. */
export const Core = integer('a core id', 0, 127)
const VlanId = integer('a vlan id', 0, 4095)
const Pcp = integer('a vlan pcp', 0, 7)
const Dir = v.picklist(['rx', 'tx'], 'expected rx or tx')
/** A classifier MAC: canonical hex pairs, or `default`. */
export const Mac = v.pipe(
  v.string('expected a MAC address string'),
  v.regex(
    /^(?:(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}|default)$/,
    'expected xx:xx:xx:xx:xx:xx in hex, or default',
  ),
)

export const ForwardBody = v.object({
  action: v.picklist(['start', 'stop'], 'expected start or stop'),
})
export type ForwardBody = v.InferOutput<typeof ForwardBody>

export const NfvPortsBody = v.object({
  action: v.picklist(['add', 'del'], 'expected add or del'),
  port: NfvPort,
})
export type NfvPortsBody = v.InferOutput<typeof NfvPortsBody>

export const PatchBody = v.object({ src: NfvPatchPort, dst: NfvPatchPort })
export type PatchBody = v.InferOutput<typeof PatchBody>

const startComponent = (types: [string, ...string[]]) =>
  v.object({
    name: ComponentName,
    core: Core,
    type: v.picklist(types, `expected ${types.join(', ')}`),
  })
/** `classifier_mac` (18.11) and `classifier` (2020) are one type, sent in the vf's own word. */
export const VfComponentBody = startComponent(['forward', 'merge', 'classifier_mac', 'classifier'])
export const MirrorComponentBody = startComponent(['mirror'])
export type ComponentBody = v.InferOutput<typeof VfComponentBody>

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

// The port bodies for a port id schema: 18.11's, or a 19.11 vf's with queues (phy:NnqQ).
const portBodies = <P extends v.GenericSchema<unknown, string>>(port: P) => {
  const detach = v.object({ action: v.literal('detach'), port, dir: Dir })
  return {
    /** vf: attach may carry a vlan operation; detach ignores it. */
    vf: v.variant(
      'action',
      [v.object({ action: v.literal('attach'), port, dir: Dir, vlan: OptionalVlan }), detach],
      'expected attach or detach',
    ),
    /** mirror: the vlan object is not looked at. */
    mirror: v.variant(
      'action',
      [v.object({ action: v.literal('attach'), port, dir: Dir }), detach],
      'expected attach or detach',
    ),
  }
}
const PORT_BODIES = portBodies(VfPort)
export const VfPortsBody = PORT_BODIES.vf
export type VfPortsBody = v.InferOutput<typeof VfPortsBody>
export const MirrorPortsBody = PORT_BODIES.mirror
export type MirrorPortsBody = v.InferOutput<typeof MirrorPortsBody>

// SPP's CLI sends the classifier vlan as a string of digits ("101").
const ClassifierVlan = v.pipe(
  v.union([v.number(), v.string()], 'expected a vlan id: an integer 0 to 4095'),
  v.transform((vlan) =>
    typeof vlan === 'string' && /^(?:0|[1-9][0-9]{0,3})$/.test(vlan) ? Number(vlan) : vlan,
  ),
  VlanId,
)
const classifierAction = v.picklist(['add', 'del'], 'expected add or del')
export const ClassifierBody = v.variant(
  'type',
  [
    v.object({ action: classifierAction, type: v.literal('mac'), mac_address: Mac, port: VfPort }),
    v.object({
      action: classifierAction,
      type: v.literal('vlan'),
      vlan: ClassifierVlan,
      mac_address: Mac,
      port: VfPort,
    }),
  ],
  'expected mac or vlan',
)
export type ClassifierBody = v.InferOutput<typeof ClassifierBody>

const QUEUE_BODIES = portBodies(VfQueuePort)
/** The port bodies of a 19.11 vf and mirror (string port indexes): queues allowed. */
export const VfQueuePortsBody = QUEUE_BODIES.vf
export const MirrorQueuePortsBody = QUEUE_BODIES.mirror
