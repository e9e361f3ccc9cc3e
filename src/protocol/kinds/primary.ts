// The primary's commands and its status reply (port counters).
import * as v from 'valibot'
import { decodeJsonText, once } from '../replies.ts'
import { paddedResult } from '../padded-result.ts'
import { ok, type Result } from '../result.ts'
import { cString, parseJson } from '../text.ts'
import type { Command } from '../command.ts'

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

// Answered as the primary sent it (a 2020 status keeps its own member order); checked first.
const decodeStatus = once((frame: Buffer): Result<PrimaryStatus> => {
  const text = cString(frame)
  const json = text.ok ? parseJson(text.value) : text
  if (json.ok && v.is(PrimaryStatus, json.value)) return ok(json.value)
  return decodeJsonText(frame, PrimaryStatus, 'primary status') // says what is wrong
})

export const primaryCommands = {
  status: (): Command<PrimaryStatus> => ({
    read: true,
    line: 'status',
    decode: decodeStatus,
    metric: 'status',
    observe: (status) => ({ kind: 'primary.read', status }),
  }),
  clear: (): Command => ({
    read: false,
    line: 'clear',
    decode: paddedResult,
    metric: 'clear',
    effect: { kind: 'primary.clear' },
  }),
  exit: (): Command => ({
    read: false,
    line: 'exit',
    decode: paddedResult,
    metric: 'exit',
    effect: { kind: 'exit' },
    closes: true,
  }),
}
