// The primary's commands (18.11's status, clear, exit; 2020's ports, forwarder, launch, flow rules).
import * as v from 'valibot'
import { FlowReply, PrimaryStatus } from '../bodies.ts'
import { change, statusRead, type Command } from '../command.ts'
import type { Change } from '../effects.ts'
import { paddedResult } from '../padded-result.ts'
import { statusShows } from '../release.ts'
import { decodeJsonText, once } from '../replies.ts'
import { ok, type Result } from '../result.ts'
import { cString, parseJson } from '../text.ts'

// Answered as the primary sent it (a 2020 status keeps its own member order); checked first.
const decodeStatus = once((frame: Buffer): Result<PrimaryStatus> => {
  const text = cString(frame)
  const json = text.ok ? parseJson(text.value) : text
  if (json.ok && v.is(PrimaryStatus, json.value)) return ok(json.value)
  return decodeJsonText(frame, PrimaryStatus, 'primary status') // says what is wrong
})

const padded = (line: string, metric: string, effect: Change, long = false) =>
  change(line, metric, effect, paddedResult, long ? { long } : {})
const changed = (command: string): Change => ({ kind: 'primary.changed', command })

const flow = (line: string, metric: string): Command<FlowReply> => ({
  read: false,
  line,
  decode: (frame) => decodeJsonText(frame, FlowReply, 'flow'),
  metric,
  effect: changed(metric),
  long: true,
})

export const primaryCommands = {
  status: (): Command<PrimaryStatus> =>
    statusRead(decodeStatus, (status) => ({
      kind: 'primary.read',
      status,
      shows: statusShows('primary', status),
    })),
  clear: () => padded('clear', 'clear', { kind: 'primary.clear' }),
  exit: () => change('exit', 'exit', { kind: 'exit' }, paddedResult, { closes: true }),
  // From 18.08.2 on (release.ts: primaryRoutes; pipe and memif ports, flow rules: 19.11).
  addPort: (port: string, rings?: { rx: string; tx: string }) =>
    padded(rings ? `add ${port} ${rings.rx} ${rings.tx}` : `add ${port}`, 'add', {
      kind: 'port.add',
      port,
    }),
  delPort: (port: string) => padded(`del ${port}`, 'del', { kind: 'port.del', port }),
  forward: () => padded('forward', 'forward', changed('forward')),
  stop: () => padded('stop', 'stop', changed('stop')),
  patch: (src: string, dst: string) =>
    padded(`patch ${src} ${dst}`, 'patch', { kind: 'patch.set', src, dst }),
  patchReset: () => padded('patch reset', 'patch reset', { kind: 'patch.reset' }),
  /** `launch ID NAME EAL… -- APP…`: the tokens are already checked and ordered. */
  launch: (tokens: string[]) =>
    padded(`launch ${tokens.join(' ')}`, 'launch', changed('launch'), true),
  /** `flow validate phy:P …`: the rule's words are already checked (requests/flow-body.ts). */
  flowValidate: (rule: string) => flow(`flow validate ${rule}`, 'flow validate'),
  /** `flow create phy:P …`, as flowValidate. */
  flowCreate: (rule: string) => flow(`flow create ${rule}`, 'flow create'),
  /** `flow destroy phy:P ID`, or every rule of the port with ALL. */
  flowDestroy: (port: number, rule: number | 'ALL') =>
    flow(`flow destroy phy:${port} ${rule}`, 'flow destroy'),
}
