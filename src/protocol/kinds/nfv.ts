// The nfv (and vm) commands, and its status reply in the spec's words.
import * as v from 'valibot'
import type { Change } from '../effects.ts'
import { decodeJsonText, once } from '../replies.ts'
import { paddedResult } from '../padded-result.ts'
import { ok, type Result } from '../result.ts'
import type { Command, NfvStatus } from '../command.ts'

const Lcore = v.pipe(v.number(), v.integer(), v.minValue(0))
const NfvStatusReply = v.object({
  'client-id': v.pipe(v.number(), v.integer()),
  status: v.picklist(['running', 'idling']),
  // 18.08.2 added lcores, 18.08.3 master-lcore; 18.11 has neither.
  'master-lcore': v.optional(Lcore),
  lcores: v.optional(v.array(Lcore)),
  ports: v.array(v.string()),
  patches: v.array(v.object({ src: v.string(), dst: v.string() })),
})

/** GET /v1/nfvs/{id}: the nfv's status with the spec's words for its state. */
export type NfvInfo = {
  'client-id': number
  status: NfvStatus
  'master-lcore'?: number
  lcores?: number[]
  ports: string[]
  patches: { src: string; dst: string }[]
}

/** The spec's words for the wire's, and back (`--nfv-status wire` answers in the wire's). */
export const SPEC_STATUS = { running: 'Running', idling: 'Idle' } as const
export const WIRE_STATUS = { Running: 'running', Idle: 'idling' } as const

const decodeStatus = once((frame: Buffer): Result<NfvInfo> => {
  const reply = decodeJsonText(frame, NfvStatusReply, 'nfv status')
  if (!reply.ok) return reply
  const { ports, patches, status, lcores } = reply.value
  const master = reply.value['master-lcore']
  // The process's own key order, as SPP's 2020 controller answers it verbatim.
  return ok({
    'client-id': reply.value['client-id'],
    status: SPEC_STATUS[status],
    ...(master === undefined ? {} : { 'master-lcore': master }),
    ...(lcores === undefined ? {} : { lcores }),
    ports,
    patches,
  })
})

// An 18.11 nfv echoes every command but status; from 18.08.4 on it answers a JSON result.
const change = (line: string, metric: string, effect: Change, closes = false): Command => ({
  read: false,
  line,
  decode: paddedResult,
  metric,
  effect,
  closes,
})

/** The nfv (and vm) commands. Port ids are already checked; each stays one token with its colon. */
export const nfvCommands = {
  status: (): Command<NfvInfo> => ({
    read: true,
    line: 'status',
    decode: decodeStatus,
    metric: 'status',
    observe: (info) => ({ kind: 'nfv.read', info }),
  }),
  forward: () => change('forward', 'forward', { kind: 'nfv.forward' }),
  stop: () => change('stop', 'stop', { kind: 'nfv.stop' }),
  addPort: (port: string) => change(`add ${port}`, 'add', { kind: 'port.add', port }),
  delPort: (port: string) => change(`del ${port}`, 'del', { kind: 'port.del', port }),
  patch: (src: string, dst: string) =>
    change(`patch ${src} ${dst}`, 'patch', { kind: 'patch.set', src, dst }),
  patchReset: () => change('patch reset', 'patch reset', { kind: 'patch.reset' }),
  exit: () => change('exit', 'exit', { kind: 'exit' }, true),
}
