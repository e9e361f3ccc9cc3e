// What vf and mirror share: their status decoded into the REST bodies, and the component commands.
import * as v from 'valibot'
import { ClassifierEntry, ComponentEntry, MirrorInfo, VfInfo } from '../bodies.ts'
import { change } from '../command.ts'
import type { Change } from '../effects.ts'
import { statusShows, type Shown } from '../release.ts'
import { decodeResults } from '../replies.ts'
import { ok, type Result } from '../result.ts'
import type { Dir } from '../tokens.ts'

// 18.11 lists port indexes as numbers; 19.11 as strings, `"0 nq 1"` for a queue of a phy port.
const Index = v.union([
  v.pipe(v.number(), v.integer(), v.minValue(0)),
  v.pipe(v.string(), v.regex(/^\d+( nq \d+)?$/)),
])
// The wire's `info`, from the bodies' own members.
const StatusReply = v.object({
  info: v.object({
    'client-id': MirrorInfo.entries['client-id'],
    phy: v.array(Index),
    vhost: v.array(Index),
    ring: v.array(Index),
    'master-lcore': MirrorInfo.entries['master-lcore'],
    core: v.array(ComponentEntry),
    classifier_table: v.optional(v.array(ClassifierEntry)),
  }),
})
type Info = v.InferOutput<typeof StatusReply>['info']

// What a status showed of its release beyond the body (its index type), kept beside the body.
const shown = new WeakMap<object, Shown>()
/** What the status this body was decoded from showed of its release. */
export const shownBy = (body: VfInfo | MirrorInfo): Shown => shown.get(body) ?? { release: '18.11' }

const component = (entry: ComponentEntry): ComponentEntry =>
  entry.name === undefined
    ? { core: entry.core, type: entry.type }
    : {
        core: entry.core,
        name: entry.name,
        type: entry.type,
        rx_port: entry.rx_port ?? [],
        tx_port: entry.tx_port ?? [],
      }

/**
 * A status reply as GET answers it, every port with its `vlan` as the process reported it: a
 * mirror's too, in 18.11 as in 2020 (the real processes report one; the spec said none).
 */
function decode<T extends object>(
  kind: 'vf' | 'mirror',
  frame: Buffer,
  body: (info: Info, shows: Shown) => T,
): Result<T> {
  const reply = decodeResults(frame, StatusReply, `${kind} status`)
  if (!reply.ok) return reply
  const { info } = reply.value
  const indexes = [...info.phy, ...info.vhost, ...info.ring]
  // With no port at all the index type cannot tell; the other markers then decide alone.
  const stringIndexes = indexes.some((i) => typeof i === 'string')
  const types = info.core.map((c) => c.type)
  const shows = statusShows(kind, info, { stringIndexes, types })
  const decoded = body(info, shows)
  shown.set(decoded, shows)
  return ok(decoded)
}

const head = (info: Info) => ({
  'client-id': info['client-id'],
  ports: [
    ...info.phy.map((n) => `phy:${n}`),
    ...info.vhost.map((n) => `vhost:${n}`),
    ...info.ring.map((n) => `ring:${n}`),
  ],
  ...(info['master-lcore'] === undefined ? {} : { 'master-lcore': info['master-lcore'] }),
})

/** A vf's status reply as GET /v1/vfs/{id} answers it. */
export const decodeVfStatus = (frame: Buffer): Result<VfInfo> =>
  decode('vf', frame, (info) => ({
    ...head(info),
    components: info.core.map(component),
    classifier_table: info.classifier_table ?? [],
  }))

/** A mirror's status reply as GET /v1/mirrors/{id} answers it. */
export const decodeMirrorStatus = (frame: Buffer): Result<MirrorInfo> =>
  decode('mirror', frame, (info) => ({
    ...head(info),
    components: info.core.map(component),
  }))

const Success = v.object({})
/** A vf, mirror or pcap change answered with success, or the process's own error. */
export const acknowledged = (frame: Buffer): Result<undefined> => {
  const reply = decodeResults(frame, Success, 'command')
  return reply.ok ? ok(undefined) : reply
}

const acked = (line: string, metric: string, effect: Change) =>
  change(line, metric, effect, acknowledged)

/** Commands vf and mirror share; every value is already checked to be one safe token. */
export const componentCommands = {
  componentStart: (name: string, core: number, type: string) =>
    acked(`component start ${name} ${core} ${type}`, 'component start', {
      kind: 'component.start',
      name,
      core,
      type,
    }),
  componentStop: (name: string) =>
    acked(`component stop ${name}`, 'component stop', { kind: 'component.stop', name }),
  portDel: (port: string, dir: Dir, component: string) =>
    acked(`port del ${port} ${dir} ${component}`, 'port del', {
      kind: 'port.detach',
      component,
      port,
      dir,
    }),
  /** `exit` of 18.08.2 and later: success, then the process closes (an 18.11 one says nothing). */
  exit: () => change('exit', 'exit', { kind: 'exit' }, acknowledged, { closes: true }),
}
