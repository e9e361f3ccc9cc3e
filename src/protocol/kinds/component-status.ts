// The status reply of a vf or mirror, decoded into the REST bodies of GET /v1/vfs and /v1/mirrors.
import * as v from 'valibot'
import { decodeResults } from '../replies.ts'
import { ok, type Result } from '../result.ts'

const Int = v.pipe(v.number(), v.integer())
const Vlan = v.object({ operation: v.string(), id: Int, pcp: Int })
const PortEntry = v.object({ port: v.string(), vlan: v.optional(Vlan) })
const CoreEntry = v.object({
  core: Int,
  type: v.string(),
  name: v.optional(v.string()),
  rx_port: v.optional(v.array(PortEntry)),
  tx_port: v.optional(v.array(PortEntry)),
})
const ClassifierEntry = v.object({ type: v.string(), value: v.string(), port: v.string() })
// 18.11 lists port indexes as numbers; 19.11 as strings, `"0 nq 1"` for a queue of a phy port.
const Index = v.union([v.pipe(Int, v.minValue(0)), v.pipe(v.string(), v.regex(/^\d+( nq \d+)?$/))])
const StatusReply = v.object({
  info: v.object({
    'client-id': Int,
    phy: v.array(Index),
    vhost: v.array(Index),
    ring: v.array(Index),
    'master-lcore': v.optional(Int),
    core: v.array(CoreEntry),
    classifier_table: v.optional(v.array(ClassifierEntry)),
  }),
})
type StatusReply = v.InferOutput<typeof StatusReply>
type CoreEntry = v.InferOutput<typeof CoreEntry>
type PortEntry = v.InferOutput<typeof PortEntry>

export type Dir = 'rx' | 'tx'
/** The vlan suffix of a vf `port add`: set a tag, or strip one. */
export type VlanTag = { operation: 'add'; id: number; pcp: number } | { operation: 'del' }
/** A port of a component; a vf reports its vlan setting, a mirror does not. */
export type PortObject = { port: string; vlan?: { operation: string; id: number; pcp: number } }
/** A component (or an unused core: `core` and `type: "unuse"` only) in a vf or mirror status. */
export type ComponentEntry = {
  core: number
  type: string
  name?: string
  rx_port?: PortObject[]
  tx_port?: PortObject[]
}
export type ClassifierEntry = v.InferOutput<typeof ClassifierEntry>
/** GET /v1/vfs/{id} */
export type VfInfo = {
  'client-id': number
  ports: string[]
  /** 18.08.3 and later only, where SPP's 2020 controller shows it. */
  'master-lcore'?: number
  components: ComponentEntry[]
  classifier_table: ClassifierEntry[]
}
/** GET /v1/mirrors/{id}: an 18.11 mirror's port objects carry only `port`, as the spec says. */
export type MirrorInfo = {
  'client-id': number
  ports: string[]
  'master-lcore'?: number
  components: ComponentEntry[]
}

/** What a status shows of its release beyond the REST body (spp-protocol-2020 §9.2). */
export type StatusMarks = { portIndexStrings?: boolean }
const marks = new WeakMap<object, StatusMarks>()
/** The markers seen in the status reply this body was decoded from. */
export const marksOf = (info: object): StatusMarks | undefined => marks.get(info)

const head = ({ info }: StatusReply) => {
  const { phy, vhost, ring } = info
  const all = [...phy, ...vhost, ...ring]
  // With no port at all the index type cannot tell; master-lcore then decides alone.
  const strings = all.length ? all.some((i) => typeof i === 'string') : undefined
  const body = {
    'client-id': info['client-id'],
    ports: portIds(info),
    ...(info['master-lcore'] === undefined ? {} : { 'master-lcore': info['master-lcore'] }),
  }
  return { body, marks: strings === undefined ? {} : { portIndexStrings: strings } }
}

const portIds = (info: StatusReply['info']) => [
  ...info.phy.map((n) => `phy:${n}`),
  ...info.vhost.map((n) => `vhost:${n}`),
  ...info.ring.map((n) => `ring:${n}`),
]

const component = (entry: CoreEntry, port: (p: PortEntry) => PortObject): ComponentEntry =>
  entry.name === undefined
    ? { core: entry.core, type: entry.type }
    : {
        core: entry.core,
        name: entry.name,
        type: entry.type,
        rx_port: (entry.rx_port ?? []).map(port),
        tx_port: (entry.tx_port ?? []).map(port),
      }

/** A vf's status reply as GET /v1/vfs/{id} answers it. */
export const decodeVfStatus = (frame: Buffer): Result<VfInfo> => {
  const reply = decodeResults(frame, StatusReply, 'vf status')
  if (!reply.ok) return reply
  const { info } = reply.value
  const { body, marks: seen } = head(reply.value)
  const decoded: VfInfo = {
    ...body,
    components: info.core.map((entry) => component(entry, (p) => p)),
    classifier_table: info.classifier_table ?? [],
  }
  marks.set(decoded, seen)
  return ok(decoded)
}

/**
 * A mirror's status reply as GET /v1/mirrors/{id} answers it. The spec's (18.11) mirror port
 * carries only `port`; a 2020 mirror's (its status shows `master-lcore` or string indexes) keeps
 * its `vlan`, as SPP's 2020 controller passes it on.
 */
export const decodeMirrorStatus = (frame: Buffer): Result<MirrorInfo> => {
  const reply = decodeResults(frame, StatusReply, 'mirror status')
  if (!reply.ok) return reply
  const { info } = reply.value
  const { body, marks: seen } = head(reply.value)
  const of2020 = info['master-lcore'] !== undefined || seen.portIndexStrings === true
  const port = of2020 ? (p: PortEntry) => p : ({ port }: PortEntry) => ({ port })
  const decoded: MirrorInfo = {
    ...body,
    components: info.core.map((entry) => component(entry, port)),
  }
  marks.set(decoded, seen)
  return ok(decoded)
}

const Success = v.object({})
/** A vf or mirror change answered with success, or the process's own error. */
export const acknowledged = (frame: Buffer): Result<undefined> => {
  const reply = decodeResults(frame, Success, 'command')
  return reply.ok ? ok(undefined) : reply
}
