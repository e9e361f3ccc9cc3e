// The request bodies of the process changes, built on protocol/tokens.ts: each value one safe token.
import * as v from 'valibot'
import { CAPABILITIES, CLASSIFIER_WORDS, type Capability } from '../protocol/release.ts'
import {
  ComponentName,
  Core,
  DirToken,
  Mac,
  OptionalVlan,
  portId,
  VlanId,
} from '../protocol/tokens.ts'

/** Which capabilities a body's grammar may count on (every release's by default). */
export type Has = (cap: Capability) => boolean
const every: Has = () => true

/**
 * A body schema per set of capabilities, built once each; found by the `has` function itself
 * first (the routes keep one per process's caps), without working out the set's key per request.
 */
function byRelease<S>(build: (has: Has) => S): (has?: Has) => S {
  const built = new Map<string, S>()
  const found = new WeakMap<Has, S>()
  return (has = every) => {
    let schema = found.get(has)
    if (schema !== undefined) return schema
    const key = (Object.keys(CAPABILITIES) as Capability[]).map((cap) => +has(cap)).join('')
    schema = built.get(key)
    if (schema === undefined) built.set(key, (schema = build(has)))
    found.set(has, schema)
    return schema
  }
}

const startStop = v.object({ action: v.picklist(['start', 'stop'], 'expected start or stop') })
/** PUT /v1/nfvs/{id}/forward and /v1/primary/forward */
export const ForwardBody = startStop
/** PUT /v1/pcaps/{id}/capture */
export const CaptureBody = startStop
const addDel = v.picklist(['add', 'del'], 'expected add or del')

/** PUT /v1/nfvs/{id}/ports: memif from 19.11. */
export const nfvPortsBody = byRelease((has) =>
  v.object({ action: addDel, port: portId('nfvPort', has) }),
)
/** PUT /v1/nfvs/{id}/patches: queues of phy ports, memif and tap from 19.11. */
export const nfvPatchBody = byRelease((has) =>
  v.object({ src: portId('nfvPatch', has), dst: portId('nfvPatch', has) }),
)

const startComponent = (types: [string, ...string[]]) =>
  v.object({
    name: ComponentName,
    core: Core,
    type: v.picklist(types, `expected ${types.join(', ')}`),
  })
/** `classifier_mac` (18.11) and `classifier` (2020) are one type, sent in the vf's own word. */
export const VfComponentBody = startComponent(['forward', 'merge', ...CLASSIFIER_WORDS])
export const MirrorComponentBody = startComponent(['mirror'])

const portBodies = byRelease((has) => {
  const port = portId('vfPort', has)
  const detach = v.object({ action: v.literal('detach'), port, dir: DirToken })
  return {
    /** vf: attach may carry a vlan operation; detach ignores it. */
    vf: v.variant(
      'action',
      [v.object({ action: v.literal('attach'), port, dir: DirToken, vlan: OptionalVlan }), detach],
      'expected attach or detach',
    ),
    /** mirror: the vlan object is not looked at. */
    mirror: v.variant(
      'action',
      [v.object({ action: v.literal('attach'), port, dir: DirToken }), detach],
      'expected attach or detach',
    ),
  }
})
/** PUT /v1/vfs/{id}/components/{name}/ports: queues of phy ports from 19.11. */
export const vfPortsBody = (has?: Has) => portBodies(has).vf
/** PUT /v1/mirrors/{id}/components/{name}/ports */
export const mirrorPortsBody = (has?: Has) => portBodies(has).mirror

// SPP's CLI sends the classifier vlan as a string of digits ("101").
const ClassifierVlan = v.pipe(
  v.union([v.number(), v.string()], 'expected a vlan id: an integer 0 to 4095'),
  v.transform((vlan) =>
    typeof vlan === 'string' && /^(?:0|[1-9][0-9]{0,3})$/.test(vlan) ? Number(vlan) : vlan,
  ),
  VlanId,
)
const ClassifierPort = portId('vfPort', () => false)
/** PUT /v1/vfs/{id}/classifier_table */
export const ClassifierBody = v.variant(
  'type',
  [
    v.object({ action: addDel, type: v.literal('mac'), mac_address: Mac, port: ClassifierPort }),
    v.object({
      action: addDel,
      type: v.literal('vlan'),
      vlan: ClassifierVlan,
      mac_address: Mac,
      port: ClassifierPort,
    }),
  ],
  'expected mac or vlan',
)

const PrimaryPorts = v.object({
  action: addDel,
  port: portId('primaryPort'),
  rx: v.optional(portId('ring')),
  tx: v.optional(portId('ring')),
})
type PrimaryPorts = v.InferOutput<typeof PrimaryPorts>
const addsPipe = (b: PrimaryPorts) => b.action === 'add' && b.port.startsWith('pipe:')
/** A check of a pipe's ring (`rx` or `tx`), reported as that key's: a 400 names it. */
const ring = (key: 'rx' | 'tx', ok: (b: PrimaryPorts) => boolean, message: string) =>
  v.forward<PrimaryPorts, v.CheckIssue<PrimaryPorts>, [typeof key]>(v.check(ok, message), [key])
const needed = 'adding a pipe needs its rx and tx rings'
const unwanted = 'only adding a pipe takes rx and tx'
/** PUT /v1/primary/ports: a pipe is added with its rx and tx rings, and deleted by its id alone. */
export const PrimaryPortsBody = v.pipe(
  PrimaryPorts,
  ring('rx', (b) => !addsPipe(b) || b.rx !== undefined, needed),
  ring('tx', (b) => !addsPipe(b) || b.tx !== undefined, needed),
  ring('rx', (b) => b.rx === undefined || addsPipe(b), unwanted),
  ring('tx', (b) => b.tx === undefined || addsPipe(b), unwanted),
)
/** PUT /v1/primary/patches: any port, physical ones with an optional queue. */
export const PrimaryPatchBody = v.object({
  src: portId('primaryPatch'),
  dst: portId('primaryPatch'),
})
