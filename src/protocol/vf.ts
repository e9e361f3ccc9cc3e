import * as v from 'valibot'
import { decodeResults } from './replies.ts'
import { ok, type Result } from './result.ts'
import type { Command, ComponentInfo, ProcessView } from './types.ts'

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
const StatusReply = v.object({
  info: v.object({
    'client-id': Int,
    phy: v.array(Int),
    vhost: v.array(Int),
    ring: v.array(Int),
    core: v.array(CoreEntry),
    classifier_table: v.optional(v.array(ClassifierEntry)),
  }),
})
type StatusReply = v.InferOutput<typeof StatusReply>
type CoreEntry = v.InferOutput<typeof CoreEntry>
type PortEntry = v.InferOutput<typeof PortEntry>

/** A component (or an unused core: `core` and `type: "unuse"` only) in a vf or mirror status. */
export type ComponentEntry = {
  core: number
  type: string
  name?: string
  rx_port?: PortObject[]
  tx_port?: PortObject[]
}
export type PortObject = { port: string; vlan?: { operation: string; id: number; pcp: number } }
/** GET /v1/vfs/{id} */
export type VfInfo = {
  'client-id': number
  ports: string[]
  components: ComponentEntry[]
  classifier_table: v.InferOutput<typeof ClassifierEntry>[]
}
/** GET /v1/mirrors/{id}: mirror port objects carry only `port`, as the spec says. */
export type MirrorInfo = { 'client-id': number; ports: string[]; components: ComponentEntry[] }

const portIds = ({ info }: StatusReply) => [
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

const decodeVfStatus = (frame: Buffer): Result<VfInfo> => {
  const reply = decodeResults(frame, StatusReply, 'vf status')
  if (!reply.ok) return reply
  const { info } = reply.value
  return ok({
    'client-id': info['client-id'],
    ports: portIds(reply.value),
    components: info.core.map((entry) => component(entry, (p) => p)),
    classifier_table: info.classifier_table ?? [],
  })
}

const decodeMirrorStatus = (frame: Buffer): Result<MirrorInfo> => {
  const reply = decodeResults(frame, StatusReply, 'mirror status')
  if (!reply.ok) return reply
  const { info } = reply.value
  return ok({
    'client-id': info['client-id'],
    ports: portIds(reply.value),
    components: info.core.map((entry) => component(entry, ({ port }) => ({ port }))),
  })
}

const Success = v.object({})
const acknowledged = (frame: Buffer): Result<undefined> => {
  const reply = decodeResults(frame, Success, 'command')
  return reply.ok ? ok(undefined) : reply
}

const componentsOf = (info: { components: ComponentEntry[] }): ComponentInfo[] =>
  info.components.flatMap(({ name, core, type }) =>
    name === undefined ? [] : [{ name, core, type }],
  )

/** The vlan suffix of a vf `port add`: set a tag, or strip one. */
export type VlanTag = { operation: 'add'; id: number; pcp: number } | { operation: 'del' }

const vlanSuffix = (vlan: VlanTag | undefined) =>
  vlan === undefined
    ? ''
    : vlan.operation === 'add'
      ? ` add_vlantag ${vlan.id} ${vlan.pcp}`
      : ' del_vlantag'

const started =
  (c: ComponentInfo) =>
  (view: ProcessView): ProcessView => ({
    ...view,
    components: [...(view.components ?? []).filter(({ name }) => name !== c.name), c],
  })
const stopped =
  (name: string) =>
  (view: ProcessView): ProcessView => ({
    ...view,
    components: (view.components ?? []).filter((c) => c.name !== name),
  })

/** Commands common to vf and mirror; every value is already checked to be one safe token. */
const componentCommands = {
  componentStart: (name: string, core: number, type: string): Command<undefined> => ({
    line: `component start ${name} ${core} ${type}`,
    decode: acknowledged,
    track: started({ name, core, type }),
  }),
  componentStop: (name: string): Command<undefined> => ({
    line: `component stop ${name}`,
    decode: acknowledged,
    track: stopped(name),
  }),
  portDel: (port: string, dir: string, name: string): Command<undefined> => ({
    line: `port del ${port} ${dir} ${name}`,
    decode: acknowledged,
  }),
}

/** What the shared vf and mirror routes need; a mirror's `portAdd` never carries a vlan. */
export type ComponentCommands = typeof componentCommands & {
  status(): Command<object>
  portAdd(port: string, dir: string, name: string, vlan?: VlanTag): Command<undefined>
}

export const vfCommands = {
  ...componentCommands,
  status: (): Command<VfInfo> => ({
    line: 'status',
    coalesce: true,
    decode: decodeVfStatus,
    track: (view, info) => ({ ...view, components: componentsOf(info) }),
  }),
  portAdd: (port: string, dir: string, name: string, vlan?: VlanTag): Command<undefined> => ({
    line: `port add ${port} ${dir} ${name}${vlanSuffix(vlan)}`,
    decode: acknowledged,
  }),
  /** `vlan` is the vid of a `vlan` entry; a `mac` entry has none. */
  classifierTable: (
    action: string,
    mac: string,
    port: string,
    vlan?: number,
  ): Command<undefined> => ({
    line:
      vlan === undefined
        ? `classifier_table ${action} mac ${mac} ${port}`
        : `classifier_table ${action} vlan ${vlan} ${mac} ${port}`,
    decode: acknowledged,
  }),
}

export const mirrorCommands = {
  ...componentCommands,
  status: (): Command<MirrorInfo> => ({
    line: 'status',
    coalesce: true,
    decode: decodeMirrorStatus,
    track: (view, info) => ({ ...view, components: componentsOf(info) }),
  }),
  portAdd: (port: string, dir: string, name: string): Command<undefined> => ({
    line: `port add ${port} ${dir} ${name}`,
    decode: acknowledged,
  }),
}
