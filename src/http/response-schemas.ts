// Valibot schemas of the GET bodies, for the OpenAPI document (the routes' answers, as the spec has them).
import * as v from 'valibot'
import { PrimaryStatus } from '../protocol/kinds/primary.ts'

const Int = v.pipe(v.number(), v.integer())
const ClientId = v.pipe(Int, v.minValue(0))

/** GET /v1/processes */
export const ProcessList = v.array(
  v.union([
    v.object({ type: v.literal('primary') }),
    v.object({ type: v.picklist(['nfv', 'vf', 'mirror', 'pcap']), 'client-id': ClientId }),
  ]),
)

/** GET /v1/primary/status: the primary's own reply, passed through. */
export { PrimaryStatus }

/** GET /v1/nfvs/{client_id} */
export const NfvInfo = v.object({
  'client-id': ClientId,
  status: v.picklist(['Running', 'Idle']),
  'master-lcore': v.optional(ClientId),
  lcores: v.optional(v.array(ClientId)),
  ports: v.array(v.string()),
  patches: v.array(v.object({ src: v.string(), dst: v.string() })),
})

const PortObject = v.object({
  port: v.string(),
  vlan: v.optional(v.object({ operation: v.string(), id: Int, pcp: Int })),
})
const Component = v.object({
  core: Int,
  type: v.string(),
  name: v.optional(v.string()),
  rx_port: v.optional(v.array(PortObject)),
  tx_port: v.optional(v.array(PortObject)),
})

/** GET /v1/vfs/{client_id} */
export const VfInfo = v.object({
  'client-id': ClientId,
  ports: v.array(v.string()),
  'master-lcore': v.optional(ClientId),
  components: v.array(Component),
  classifier_table: v.array(v.object({ type: v.string(), value: v.string(), port: v.string() })),
})

/** GET /v1/mirrors/{client_id} */
export const MirrorInfo = v.object({
  'client-id': ClientId,
  ports: v.array(v.string()),
  'master-lcore': v.optional(ClientId),
  components: v.array(Component),
})

/** GET /v1/pcaps/{client_id}: the status `info`, passed through (2020 processes). */
export const PcapInfo = v.looseObject({
  'client-id': ClientId,
  status: v.picklist(['idle', 'running']),
  'master-lcore': v.optional(ClientId),
  core: v.array(v.looseObject({ core: Int })),
})

const Unreadable = v.object({ error: v.string() })
const byClientId = <T extends v.GenericSchema>(state: T) =>
  v.record(v.string(), v.union([state, Unreadable]))

/** GET /v1/topology */
export const Topology = v.object({
  primary: v.union([PrimaryStatus, Unreadable, v.object({})]),
  nfvs: byClientId(NfvInfo),
  vfs: byClientId(VfInfo),
  mirrors: byClientId(MirrorInfo),
  pcaps: v.optional(byClientId(PcapInfo)),
})

const Step = v.object({
  method: v.picklist(['POST', 'PUT', 'DELETE']),
  path: v.string(),
  body: v.optional(v.record(v.string(), v.unknown())),
  action: v.string(),
  why: v.string(),
})

/** POST /v1/topology/plan: the ordered steps and how many of each action. */
export const Plan = v.object({
  steps: v.array(Step),
  summary: v.record(v.string(), v.number()),
})

/** POST /v1/topology/apply: the steps done, the summary and how long it took. */
export const Applied = v.object({
  done: v.array(v.looseObject({})),
  summary: v.record(v.string(), v.number()),
  ms: v.number(),
})
