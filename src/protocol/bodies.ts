// The body of every GET that shows a process: described once here; the reply decoders, the types
// and the OpenAPI document all derive from these schemas.
import * as v from 'valibot'

/** The kinds of SPP process (spp_pcap exists from 18.08.2 on). */
export const ProcessKind = v.picklist(['primary', 'nfv', 'vf', 'mirror', 'pcap'])
export type ProcessKind = v.InferOutput<typeof ProcessKind>
export type SecondaryKind = Exclude<ProcessKind, 'primary'>

const Int = v.pipe(v.number(), v.integer())
const Count = v.pipe(Int, v.minValue(0))

/** GET /v1/processes */
export const ProcessList = v.array(
  v.union([
    v.object({ type: v.literal('primary') }),
    v.object({ type: v.picklist(['nfv', 'vf', 'mirror', 'pcap']), 'client-id': Int }),
  ]),
)
export type ProcessList = v.InferOutput<typeof ProcessList>

const PhyPort = v.looseObject({ id: Count, eth: v.string(), rx: Count, tx: Count, tx_drop: Count })
const RingPort = v.looseObject({ id: Count, rx: Count, rx_drop: Count, tx: Count, tx_drop: Count })
/** GET /v1/primary/status: the primary's reply as it sent it (a 2020 one adds lcores, ...). */
export const PrimaryStatus = v.looseObject({
  phy_ports: v.array(PhyPort),
  ring_ports: v.array(RingPort),
})
export type PrimaryStatus = v.InferOutput<typeof PrimaryStatus>

/** An nfv's forwarding state in the spec's words (the wire says running/idling). */
export const NfvStatus = v.picklist(['Running', 'Idle'])
export type NfvStatus = v.InferOutput<typeof NfvStatus>
/** GET /v1/nfvs/{client_id}; `master-lcore` from 18.08.3, `lcores` from 18.08.2. */
export const NfvInfo = v.object({
  'client-id': Int,
  status: NfvStatus,
  'master-lcore': v.optional(Count),
  lcores: v.optional(v.array(Count)),
  ports: v.array(v.string()),
  patches: v.array(v.object({ src: v.string(), dst: v.string() })),
})
export type NfvInfo = v.InferOutput<typeof NfvInfo>

const Vlan = v.object({ operation: v.string(), id: Int, pcp: Int })
/** A port of a component, with its vlan setting as the vf or mirror reports it. */
export const PortObject = v.object({ port: v.string(), vlan: v.optional(Vlan) })
export type PortObject = v.InferOutput<typeof PortObject>
/** A component, or an unused core (`core` and `type: "unuse"` only), in a vf or mirror status. */
export const ComponentEntry = v.object({
  core: Int,
  type: v.string(),
  name: v.optional(v.string()),
  rx_port: v.optional(v.array(PortObject)),
  tx_port: v.optional(v.array(PortObject)),
})
export type ComponentEntry = v.InferOutput<typeof ComponentEntry>
export const ClassifierEntry = v.object({ type: v.string(), value: v.string(), port: v.string() })
export type ClassifierEntry = v.InferOutput<typeof ClassifierEntry>

/** GET /v1/mirrors/{client_id}; `master-lcore` from 18.08.3, where SPP's 2020 controller shows it. */
export const MirrorInfo = v.object({
  'client-id': Int,
  ports: v.array(v.string()),
  'master-lcore': v.optional(Count),
  components: v.array(ComponentEntry),
})
export type MirrorInfo = v.InferOutput<typeof MirrorInfo>
/** GET /v1/vfs/{client_id} */
export const VfInfo = v.object({
  ...MirrorInfo.entries,
  classifier_table: v.array(ClassifierEntry),
})
export type VfInfo = v.InferOutput<typeof VfInfo>

/** GET /v1/pcaps/{client_id}: the `info` of its status, as SPP's 2020 controller answers. */
export const PcapInfo = v.looseObject({
  'client-id': Int,
  status: v.picklist(['idle', 'running']),
  'master-lcore': v.optional(Int),
  core: v.array(
    v.looseObject({
      core: Int,
      role: v.optional(v.string()),
      rx_port: v.optional(v.array(v.looseObject({ port: v.string() }))),
      filename: v.optional(v.string()),
    }),
  ),
})
export type PcapInfo = v.InferOutput<typeof PcapInfo>

/** A 19.11 primary's flow command reply (§4.7): answered as is, also when `result` is `error`. */
export const FlowReply = v.looseObject({
  result: v.picklist(['success', 'error']),
  message: v.string(),
})
export type FlowReply = v.InferOutput<typeof FlowReply>
