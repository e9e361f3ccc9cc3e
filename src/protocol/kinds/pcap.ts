// The spp_pcap commands (2019 and later) and its status, which GET /v1/pcaps/{id} answers verbatim.
import * as v from 'valibot'
import { acknowledged } from './component-status.ts'
import type { Change } from '../effects.ts'
import { decodeResults, once } from '../replies.ts'
import type { Command } from '../command.ts'

const Int = v.pipe(v.number(), v.integer())
const Core = v.looseObject({
  core: Int,
  role: v.optional(v.string()),
  rx_port: v.optional(v.array(v.looseObject({ port: v.string() }))),
  filename: v.optional(v.string()),
})
const PcapInfo = v.looseObject({
  'client-id': Int,
  status: v.picklist(['idle', 'running']),
  'master-lcore': v.optional(Int),
  core: v.array(Core),
})
/** GET /v1/pcaps/{id}: the `info` object of the status reply, as SPP's 2020 controller answers. */
export type PcapInfo = v.InferOutput<typeof PcapInfo>

const decodeStatus = once((frame: Buffer) => {
  const reply = decodeResults(frame, v.object({ info: PcapInfo }), 'pcap status')
  return reply.ok ? { ok: true as const, value: reply.value.info } : reply
})

const change = (line: 'start' | 'stop' | 'exit', effect: Change): Command => ({
  read: false,
  line,
  decode: acknowledged,
  metric: line,
  effect,
  ...(line === 'exit' ? { closes: true } : {}),
})

export const pcapCommands = {
  status: (): Command<PcapInfo> => ({
    read: true,
    line: 'status',
    decode: decodeStatus,
    metric: 'status',
    observe: (info) => ({ kind: 'pcap.read', info }),
  }),
  start: () => change('start', { kind: 'pcap.start' }),
  stop: () => change('stop', { kind: 'pcap.stop' }),
  exit: () => change('exit', { kind: 'exit' }),
}
