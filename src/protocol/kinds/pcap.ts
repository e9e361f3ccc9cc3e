// The spp_pcap commands (18.08.2 and later) and its status, which GET /v1/pcaps/{id} answers verbatim.
import * as v from 'valibot'
import { PcapInfo } from '../bodies.ts'
import { change, statusRead, type Command } from '../command.ts'
import type { Change } from '../effects.ts'
import { statusShows } from '../release.ts'
import { decodeResults, once } from '../replies.ts'
import { acknowledged } from './components.ts'

const decodeStatus = once((frame: Buffer) => {
  const reply = decodeResults(frame, v.object({ info: PcapInfo }), 'pcap status')
  return reply.ok ? { ok: true as const, value: reply.value.info } : reply
})

const acked = (line: 'start' | 'stop' | 'exit', effect: Change) =>
  change(line, line, effect, acknowledged, line === 'exit' ? { closes: true } : {})

export const pcapCommands = {
  status: (): Command<PcapInfo> =>
    statusRead(decodeStatus, (info) => ({
      kind: 'pcap.read',
      info,
      shows: statusShows('pcap', info),
    })),
  start: () => acked('start', { kind: 'pcap.start' }),
  stop: () => acked('stop', { kind: 'pcap.stop' }),
  exit: () => acked('exit', { kind: 'exit' }),
}
