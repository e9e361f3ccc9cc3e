// The 2020 primary's part of a plan: its forwarder, planned as an nfv's, and its pipes; what it
// creates (ring and pipe ports) is added before any secondary builds on it.
import { PRIMARY } from '../protocol/process-id.ts'
import { noRing } from '../state/hazards.ts'
import type { DesiredPrimary } from './desired-primary.ts'
import { planForwarder, wantedForwarder, type Forwarder } from './plan-forwarder.ts'
import { isStatus, readPrimary, type Pipe } from './primary-forwarder.ts'
import type { TopologyDocument } from './read-topology.ts'
import { PRIMARY_BUILD, Refused, type Context, type Phased } from './steps.ts'

const FIELD = 'primary.forwarder'
const portOf = (pipe: Pipe) => `pipe:${pipe.id}`
const rings = (pipe: Pipe) => ({ rx: `ring:${pipe.rx}`, tx: `ring:${pipe.tx}` })
const pipeKeys = (pipes: Pipe[]) => pipes.map(({ id, rx, tx }) => `${id} ${rx} ${tx}`).sort()
const samePipes = (a: Pipe[], b: Pipe[]) => pipeKeys(a).join() === pipeKeys(b).join()

/** Whether a desired primary asks for anything: its forwarder, its pipes, or an export's error. */
export const plansPrimary = (wanted: DesiredPrimary | undefined): wanted is DesiredPrimary =>
  wanted !== undefined &&
  (wanted.forwarder !== undefined || wanted.pipes !== undefined || wanted.error !== undefined)

/**
 * The primary's live and wanted forwarder and pipes, checked; undefined when it has no forwarder
 * (18.11, or a 2020 primary whose thread does not run), which only a document that asks for no
 * change of it plans against. Pipes are listed both ways: `pipes` with their rings, and
 * `forwarder.ports` with the other ports; an absent one follows the other.
 */
export function wantedPrimary(
  live: TopologyDocument['primary'],
  wanted: DesiredPrimary,
  context: Context,
) {
  if (!isStatus(live))
    throw new Refused(
      'primary',
      'error' in live ? `the primary could not be read: ${live.error}` : 'no primary is connected',
    )
  const shown = readPrimary(live)
  if ('error' in shown)
    throw new Refused('primary', `the primary could not be read: ${shown.error}`)
  const { forwarder, pipes: livePipes, release, has, lacks } = shown
  const liveById = new Map(livePipes.map((pipe) => [pipe.id, pipe]))
  /** Whether the primary has this pipe, over these rings. */
  const kept = ({ id, rx, tx }: Pipe) => {
    const was = liveById.get(id)
    return was !== undefined && was.rx === rx && was.tx === tx
  }
  if (!forwarder) {
    const why = has('primaryRoutes')
      ? "the primary's status shows no forwarder: its thread does not run " +
        '(SPP runs it with two lcores or more, without --disp-stats)'
      : `the primary is SPP ${release}: it has no forwarder, ports or patches (SPP 18.08.2 and later)`
    if (wanted.forwarder) throw new Refused(FIELD, why)
    if (wanted.pipes && !samePipes(wanted.pipes, livePipes)) throw new Refused('primary.pipes', why)
    return undefined
  }
  const listed = wanted.forwarder?.ports
  const pipes =
    wanted.pipes ??
    livePipes.filter((pipe) => listed === undefined || listed.includes(portOf(pipe)))
  pipes.forEach((pipe, i) => {
    const at = `primary.pipes[${i}]`
    if (pipes.findIndex((p) => p.id === pipe.id) !== i)
      throw new Refused(`${at}.id`, `${portOf(pipe)} is listed twice`)
    if (listed && !listed.includes(portOf(pipe)))
      throw new Refused(at, `${portOf(pipe)} is not in ${FIELD}.ports`)
    if (kept(pipe)) return
    const lacking = lacks('pipe')
    if (lacking !== undefined) throw new Refused(at, lacking)
    for (const dir of ['rx', 'tx'] as const)
      if (context.rings && !context.rings.has(pipe[dir]))
        throw new Refused(
          `${at}.${dir}`,
          `${noRing(`ring:${pipe[dir]}`, context.rings)}; ${portOf(pipe)} cannot be added over it`,
        )
  })
  const pipePorts = pipes.map(portOf)
  listed?.forEach((port, i) => {
    if (port.startsWith('pipe:') && !pipePorts.includes(port))
      throw new Refused(
        `${FIELD}.ports[${i}]`,
        `${port} is not in primary.pipes: a pipe is added with its rx and tx rings`,
      )
  })
  const livePipePorts = new Set(livePipes.map(portOf))
  const ports = listed ?? [
    ...forwarder.ports.filter((port) => !livePipePorts.has(port) || pipePorts.includes(port)),
    ...pipePorts.filter((port) => !forwarder.ports.includes(port)),
  ]
  const byPort = new Map(pipes.map((pipe) => [portOf(pipe), pipe]))
  const f: Forwarder = {
    field: FIELD,
    who: 'the primary',
    process: PRIMARY,
    base: '/v1/primary',
    use: 'primaryPort',
    addPhase: PRIMARY_BUILD,
    lacks,
    replaced: new Set(pipes.filter((p) => liveById.has(p.id) && !kept(p)).map(portOf)),
    addBody: (port) => {
      const pipe = byPort.get(port)
      return pipe ? rings(pipe) : {}
    },
  }
  const want = wantedForwarder(f, forwarder, { ...wanted.forwarder, ports }, context)
  return { f, live: forwarder, want, pipes, livePipes }
}

/** Steps for the primary, each with its phase of the design note's order. */
export function planPrimary(
  live: TopologyDocument['primary'],
  wanted: DesiredPrimary,
  context: Context,
): Phased[] {
  const planned = wantedPrimary(live, wanted, context)
  if (!planned) return []
  return planForwarder(planned.f, planned.live, planned.want)
}
