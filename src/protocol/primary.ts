import * as v from 'valibot'
import { anyReply, decodeJsonText } from './replies.ts'
import type { Command } from './types.ts'

const Counter = v.pipe(v.number(), v.integer(), v.minValue(0))
const PhyPort = v.looseObject({
  id: Counter,
  eth: v.string(),
  rx: Counter,
  tx: Counter,
  tx_drop: Counter,
})
const RingPort = v.looseObject({
  id: Counter,
  rx: Counter,
  rx_drop: Counter,
  tx: Counter,
  tx_drop: Counter,
})
/** The primary's `status` reply; it is also the REST body of GET /v1/primary/status. */
export const PrimaryStatus = v.looseObject({
  phy_ports: v.array(PhyPort),
  ring_ports: v.array(RingPort),
})
export type PrimaryStatus = v.InferOutput<typeof PrimaryStatus>

export const primaryCommands = {
  status: (): Command<PrimaryStatus> => ({
    line: 'status',
    coalesce: true,
    decode: (f) => decodeJsonText(f, PrimaryStatus, 'primary status'),
  }),
  clear: (): Command<undefined> => ({ line: 'clear', decode: anyReply }),
  exit: (): Command<undefined> => ({ line: 'exit', decode: anyReply, closes: true }),
}
