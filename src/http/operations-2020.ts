// The OpenAPI rows of the routes SPP's 2020 controller added (pcap, primary forwarder, flow rules, cpu).
import * as v from 'valibot'
import { FlowBody } from './flow-body.ts'
import { LaunchBody } from './launch-body.ts'
import type { Operation } from './operations.ts'
import { PcapInfo } from './response-schemas.ts'
import { ForwardBody } from './schemas.ts'
import { CaptureBody, PrimaryPatchBody, PrimaryPortsBody } from './schemas-2020.ts'

const pcap = '/v1/pcaps/{client_id}'
const flow = '/v1/primary/flow_rules'
const Int = v.pipe(v.number(), v.integer())
const FlowReply = v.looseObject({ result: v.string(), message: v.string() })
const rule = {
  rule: {
    direction: 'ingress',
    pattern: ['eth dst is 11:22:33:44:55:66'],
    actions: ['queue index 1'],
  },
}
const only2020 = ' (SPP 2020 processes; 405 for 18.11)'

/** One row per 2020 route; `command` rows may be rejected by the process. */
export const OPERATIONS_2020: Operation[] = [
  {
    method: 'get',
    path: pcap,
    summary: "A pcap's capture status",
    success: PcapInfo,
    command: true,
  },
  {
    method: 'put',
    path: `${pcap}/capture`,
    summary: 'Start or stop capturing',
    body: CaptureBody,
    example: { action: 'start' },
    success: 204,
    command: true,
  },
  { method: 'delete', path: pcap, summary: 'Terminate the pcap', success: 204, command: true },
  {
    method: 'delete',
    path: '/v1/vfs/{client_id}',
    summary: `Terminate the vf${only2020}`,
    success: 204,
    command: true,
  },
  {
    method: 'delete',
    path: '/v1/mirrors/{client_id}',
    summary: `Terminate the mirror${only2020}`,
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: '/v1/primary/ports',
    summary: `Add or delete a primary port${only2020}`,
    body: PrimaryPortsBody,
    example: { action: 'add', port: 'ring:0' },
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: '/v1/primary/forward',
    summary: `Start or stop the primary's forwarder${only2020}`,
    body: ForwardBody,
    example: { action: 'start' },
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: '/v1/primary/patches',
    summary: `Patch two ports in the primary${only2020}`,
    body: PrimaryPatchBody,
    example: { src: 'phy:0', dst: 'ring:0' },
    success: 204,
    command: true,
  },
  {
    method: 'delete',
    path: '/v1/primary/patches',
    summary: `Reset the primary's patches${only2020}`,
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: '/v1/primary/launch',
    summary: `Launch a secondary process${only2020}`,
    body: LaunchBody,
    example: {
      client_id: 1,
      proc_name: 'spp_nfv',
      eal: { '-l': '1,2', '--proc-type': 'secondary' },
      app: { '-n': 1, '-s': '127.0.0.1:6666' },
    },
    success: 204,
    command: true,
  },
  {
    method: 'post',
    path: `${flow}/port_id/{port_id}/validate`,
    summary: `Validate a flow rule${only2020}`,
    body: FlowBody,
    example: rule,
    success: FlowReply,
    command: true,
  },
  {
    method: 'post',
    path: `${flow}/port_id/{port_id}`,
    summary: `Create a flow rule${only2020}`,
    body: FlowBody,
    example: rule,
    success: FlowReply,
    command: true,
  },
  {
    method: 'delete',
    path: `${flow}/port_id/{port_id}`,
    summary: `Destroy every flow rule of a port${only2020}`,
    success: FlowReply,
    command: true,
  },
  {
    method: 'delete',
    path: `${flow}/{rule_id}/port_id/{port_id}`,
    summary: `Destroy a flow rule${only2020}`,
    success: FlowReply,
    command: true,
  },
  {
    method: 'get',
    path: '/v1/cpu_layout',
    summary: "This host's sockets, cores and lcores (from sysfs; 204 where sysfs cannot be read)",
    success: v.array(
      v.object({
        socket_id: Int,
        cores: v.array(v.object({ core_id: Int, lcores: v.array(Int) })),
      }),
    ),
  },
  {
    method: 'get',
    path: '/v1/cpu_usage',
    summary: 'The lcores each process uses (processes that report them)',
    success: v.array(
      v.looseObject({ 'proc-type': v.string(), 'master-lcore': Int, lcores: v.array(Int) }),
    ),
    command: true,
  },
]
