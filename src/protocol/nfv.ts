// The nfv (and vm) commands, and its status reply in the spec's words.
import * as v from 'valibot'
import type { Change } from './effects.ts'
import { anyReply, decodeJsonText, once } from './replies.ts'
import { ok, type Result } from './result.ts'
import type { Command, NfvStatus } from './types.ts'

const NfvStatusReply = v.object({
  'client-id': v.pipe(v.number(), v.integer()),
  status: v.picklist(['running', 'idling']),
  ports: v.array(v.string()),
  patches: v.array(v.object({ src: v.string(), dst: v.string() })),
})

/** GET /v1/nfvs/{id}: the nfv's status with the spec's words for its state. */
export type NfvInfo = {
  'client-id': number
  status: NfvStatus
  ports: string[]
  patches: { src: string; dst: string }[]
}

/** The spec's words for the wire's, and back (`--nfv-status wire` answers in the wire's). */
export const SPEC_STATUS = { running: 'Running', idling: 'Idle' } as const
export const WIRE_STATUS = { Running: 'running', Idle: 'idling' } as const

const decodeStatus = once((frame: Buffer): Result<NfvInfo> => {
  const reply = decodeJsonText(frame, NfvStatusReply, 'nfv status')
  if (!reply.ok) return reply
  const { ports, patches, status } = reply.value
  return ok({ 'client-id': reply.value['client-id'], status: SPEC_STATUS[status], ports, patches })
})

// primary and nfv echo every command but status: the echo carries no outcome.
const change = (line: string, metric: string, effect: Change, closes = false): Command => ({
  read: false,
  line,
  decode: anyReply,
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
