import * as v from 'valibot'
import { anyReply, decodeJsonText } from './replies.ts'
import type { Command, NfvStatus, ProcessView } from './types.ts'

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

const WIRE_STATUS = { running: 'Running', idling: 'Idle' } as const

const decodeStatus = (frame: Buffer) => {
  const reply = decodeJsonText(frame, NfvStatusReply, 'nfv status')
  if (!reply.ok) return reply
  const { status, ...rest } = reply.value
  return {
    ok: true as const,
    value: {
      'client-id': rest['client-id'],
      status: WIRE_STATUS[status],
      ports: rest.ports,
      patches: rest.patches,
    },
  }
}

const setStatus =
  (status: NfvStatus) =>
  (view: ProcessView): ProcessView => ({ ...view, status })

/** The nfv (and vm) commands. Port ids are already checked; each stays one token with its colon. */
export const nfvCommands = {
  status: (): Command<NfvInfo> => ({
    line: 'status',
    coalesce: true,
    decode: decodeStatus,
    track: (view, info) => ({ ...view, status: info.status }),
  }),
  forward: (): Command<undefined> => ({
    line: 'forward',
    decode: anyReply,
    track: setStatus('Running'),
  }),
  stop: (): Command<undefined> => ({ line: 'stop', decode: anyReply, track: setStatus('Idle') }),
  addPort: (port: string): Command<undefined> => ({ line: `add ${port}`, decode: anyReply }),
  // The process stops forwarding on every `del`, whether or not the port existed.
  delPort: (port: string): Command<undefined> => ({
    line: `del ${port}`,
    decode: anyReply,
    track: setStatus('Idle'),
  }),
  patch: (src: string, dst: string): Command<undefined> => ({
    line: `patch ${src} ${dst}`,
    decode: anyReply,
  }),
  patchReset: (): Command<undefined> => ({ line: 'patch reset', decode: anyReply }),
  exit: (): Command<undefined> => ({ line: 'exit', decode: anyReply, closes: true }),
}
