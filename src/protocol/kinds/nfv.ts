// The nfv (and vm) commands, and its status reply in the spec's words.
import * as v from 'valibot'
import { NfvInfo } from '../bodies.ts'
import { change, statusRead, type Command } from '../command.ts'
import type { Change } from '../effects.ts'
import { paddedResult } from '../padded-result.ts'
import { statusShows } from '../release.ts'
import { decodeJsonText, once } from '../replies.ts'
import { ok, type Result } from '../result.ts'

// The body, with the wire's words for the state (18.08.2 added lcores, 18.08.3 master-lcore).
const NfvStatusReply = v.object({ ...NfvInfo.entries, status: v.picklist(['running', 'idling']) })

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
const padded = (line: string, metric: string, effect: Change, closes = false) =>
  change(line, metric, effect, paddedResult, closes ? { closes } : {})

/** The nfv (and vm) commands. Port ids are already checked; each stays one token with its colon. */
export const nfvCommands = {
  status: (): Command<NfvInfo> =>
    statusRead(decodeStatus, (info) => ({
      kind: 'nfv.read',
      info,
      shows: statusShows('nfv', info),
    })),
  forward: () => padded('forward', 'forward', { kind: 'nfv.forward' }),
  stop: () => padded('stop', 'stop', { kind: 'nfv.stop' }),
  addPort: (port: string) => padded(`add ${port}`, 'add', { kind: 'port.add', port }),
  delPort: (port: string) => padded(`del ${port}`, 'del', { kind: 'port.del', port }),
  patch: (src: string, dst: string) =>
    padded(`patch ${src} ${dst}`, 'patch', { kind: 'patch.set', src, dst }),
  patchReset: () => padded('patch reset', 'patch reset', { kind: 'patch.reset' }),
  exit: () => padded('exit', 'exit', { kind: 'exit' }, true),
}
