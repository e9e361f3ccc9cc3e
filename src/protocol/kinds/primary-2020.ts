// The commands only a 2020-era primary has: ports, its forwarder, patches, launch, flow rules.
import * as v from 'valibot'
import type { Change } from '../effects.ts'
import { paddedResult } from '../padded-result.ts'
import { decodeJsonText } from '../replies.ts'
import type { Command } from '../command.ts'

const change = (line: string, metric: string, effect: Change, long = false): Command => ({
  read: false,
  line,
  decode: paddedResult,
  metric,
  effect,
  ...(long ? { long } : {}),
})

/** A flow command's reply (§4.7): returned as is, also when its `result` is `error`. */
const FlowReply = v.looseObject({ result: v.picklist(['success', 'error']), message: v.string() })
export type FlowReply = v.InferOutput<typeof FlowReply>

const flow = (line: string, metric: string): Command<FlowReply> => ({
  read: false,
  line,
  decode: (frame) => decodeJsonText(frame, FlowReply, 'flow'),
  metric,
  effect: { kind: 'primary.changed', command: metric },
  long: true,
})

/** Commands of 18.08.4 (add/del), 19.08 (forward, patch) and 19.11 (pipe, flow) primaries. */
export const primary2020Commands = {
  addPort: (port: string, rings?: { rx: string; tx: string }) =>
    change(rings ? `add ${port} ${rings.rx} ${rings.tx}` : `add ${port}`, 'add', {
      kind: 'port.add',
      port,
    }),
  delPort: (port: string) => change(`del ${port}`, 'del', { kind: 'port.del', port }),
  forward: () => change('forward', 'forward', { kind: 'primary.changed', command: 'forward' }),
  stop: () => change('stop', 'stop', { kind: 'primary.changed', command: 'stop' }),
  patch: (src: string, dst: string) =>
    change(`patch ${src} ${dst}`, 'patch', { kind: 'patch.set', src, dst }),
  patchReset: () => change('patch reset', 'patch reset', { kind: 'patch.reset' }),
  /** `launch ID NAME EAL… -- APP…`: the tokens are already checked and ordered (http/launch.ts). */
  launch: (tokens: string[]) =>
    change(
      `launch ${tokens.join(' ')}`,
      'launch',
      { kind: 'primary.changed', command: 'launch' },
      true,
    ),
  flow: (words: string) => flow(`flow ${words}`, `flow ${words.split(' ')[0] ?? ''}`),
}
