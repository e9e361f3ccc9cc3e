// A forwarder's part of a plan: ports, patches and Running/Idle, in the order a real one accepts.
// An nfv and a 2020 primary forward alike (spp-protocol-2020 §4.5), so both are planned here.
import type { NfvStatus } from '../protocol/bodies.ts'
import type { ProcessId } from '../protocol/process-id.ts'
import type { Capability } from '../protocol/release.ts'
import { PORT_USES, portNeeds, portParts, wire, type PortUse } from '../protocol/tokens.ts'
import { noRing } from '../state/hazards.ts'
import { Refused, type Context, type Phased, type Step } from './steps.ts'

/** One patch: a source port and its one destination. */
export type Patch = { src: string; dst: string }
/** A forwarder as its status shows it: Running/Idle, every port (phy included), its patches. */
export type ForwarderState = { status: NfvStatus; ports: string[]; patches: Patch[] }
/** The wanted fields of a forwarder; an absent one keeps the live value. */
export type WantedForwarder = Partial<ForwarderState>

/** Which forwarder: how the document and a reason name it, where its routes are, what it adds. */
export type Forwarder = {
  /** Its place in the desired document, e.g. `nfvs.1`. */
  field: string
  /** Its name in a reason or a step's `why`, e.g. `nfv 1`. */
  who: string
  /** The process it is. */
  process: ProcessId
  /** The path its `/ports`, `/patches` and `/forward` routes hang from. */
  base: string
  /** The port types it adds and deletes; it has the others (phy, tap) from its start, or never. */
  use: PortUse
  /** The phase of its port adds in the design note's order. */
  addPhase: number
  /** Why its release cannot add a port that needs `cap`; undefined when it can (or is not known). */
  lacks?: (cap: Capability) => string | undefined
  /** Ports to delete and add again even though they are listed on both sides (a pipe's rings). */
  replaced?: ReadonlySet<string>
  /** What an add of `port` sends besides its action and port (a pipe's rings). */
  addBody?: (port: string) => Record<string, string>
}

const patchKey = ({ src, dst }: Patch) => `${src} ${dst}`

/** The wanted ports (the fixed ones included) and patches, checked; absent fields keep live ones. */
export function wantedForwarder(
  f: Forwarder,
  live: ForwarderState,
  wanted: WantedForwarder,
  context: Context,
) {
  const types: object = PORT_USES[f.use].types
  const fixed = (port: string) => !Object.hasOwn(types, portParts(port).type)
  const livePorts = live.ports.filter((p) => p !== 'udf')
  const ports = wanted.ports ?? livePorts
  ports.forEach((port, i) => {
    const at = `${f.field}.ports[${i}]`
    if (ports.indexOf(port) !== i) throw new Refused(at, `${port} is listed twice`)
    if (livePorts.includes(port)) return
    const { type, index } = portParts(port)
    if (fixed(port)) {
      const what = type === 'phy' ? 'physical' : type
      throw new Refused(at, `${f.who} has no ${port}: ${what} ports cannot be added`)
    }
    if (type === 'ring' && context.rings && !context.rings.has(index))
      throw new Refused(at, `${noRing(port, context.rings)}; ${f.who} would not add it`)
    const need = portNeeds(f.use, port)
    const lacking = need === undefined ? undefined : f.lacks?.(need)
    if (lacking !== undefined) throw new Refused(at, lacking)
  })
  const final = new Set([...livePorts.filter(fixed), ...ports])
  const removed = livePorts.filter((p) => !fixed(p) && !final.has(p))
  const patches =
    wanted.patches ??
    live.patches.filter(({ src, dst }) => !removed.includes(src) && !removed.includes(dst))
  patches.forEach(({ src, dst }, i) => {
    const at = `${f.field}.patches[${i}]`
    for (const [end, port] of [
      ['src', src],
      ['dst', dst],
    ] as const)
      if (!final.has(port))
        throw new Refused(`${at}.${end}`, `${port} will not be a port of ${f.who}`)
    if (patches.findIndex((p) => p.src === src) !== i)
      throw new Refused(`${at}.src`, `${src} already has a destination: one patch per source`)
  })
  const status: NfvStatus = wanted.status ?? live.status
  return { ports: [...final], removed, patches, status }
}
/** What a forwarder is to become: its ports, the ports that go, its patches and status. */
export type ForwarderWant = ReturnType<typeof wantedForwarder>

/** Steps for one forwarder, each with its phase of the design note's order. */
export function planForwarder(f: Forwarder, live: ForwarderState, want: ForwarderWant): Phased[] {
  const out: Phased[] = []
  const add = (phase: number, step: Step) => out.push({ phase, step })
  const replaced = want.ports.filter((p) => f.replaced?.has(p) && live.ports.includes(p))
  const touches = ({ src, dst }: Patch) => replaced.includes(src) || replaced.includes(dst)
  const liveKeys = new Set(live.patches.map(patchKey))
  // A port deleted to be added again takes its patches with it: they are set again.
  const patchesChange =
    want.patches.length !== live.patches.length ||
    want.patches.some((p) => !liveKeys.has(patchKey(p))) ||
    live.patches.some(touches)
  const added = want.ports.filter((p) => !live.ports.includes(p) || replaced.includes(p))
  const deletes = want.removed.length + replaced.length > 0
  const running = live.status === 'Running'
  const stops = running && (patchesChange || deletes || want.status === 'Idle')
  if (stops) {
    const why =
      want.status === 'Idle'
        ? 'Idle is wanted'
        : patchesChange
          ? 'patches change while forwarding'
          : 'deleting a port stops forwarding'
    add(4, forward(f, 'stop', `stop forwarding on ${f.who}: ${why}`))
  }
  if (patchesChange && live.patches.length > 0)
    add(5, {
      method: 'DELETE',
      path: `${f.base}/patches`,
      action: 'patches.reset',
      why: `reset the patches of ${f.who}: the set of patches changes (there is no single-patch delete)`,
      process: f.process,
    })
  for (const port of want.removed) add(6, portStep(f, 'del', port, 'not wanted'))
  for (const port of replaced) add(6, portStep(f, 'del', port, 'to add it again as wanted'))
  for (const port of added) add(f.addPhase, portStep(f, 'add', port))
  if (patchesChange)
    for (const { src, dst } of want.patches)
      add(10, {
        method: 'PUT',
        path: `${f.base}/patches`,
        body: { src: wire(src), dst: wire(dst) },
        action: 'patch.set',
        why: `patch ${src} -> ${dst} on ${f.who}`,
        process: f.process,
      })
  // `del` stops forwarding even when the status was Idle before: restart whenever Running is wanted.
  if (want.status === 'Running' && (!running || stops))
    add(11, forward(f, 'start', `start forwarding on ${f.who}: Running is wanted`))
  return out
}

const forward = (f: Forwarder, action: 'start' | 'stop', why: string): Step => ({
  method: 'PUT',
  path: `${f.base}/forward`,
  body: { action },
  action: `forward.${action}`,
  why,
  process: f.process,
})

function portStep(f: Forwarder, action: 'add' | 'del', port: string, reason?: string): Step {
  const extra = action === 'add' ? (f.addBody?.(port) ?? {}) : {}
  const details = Object.entries(extra).map(([key, value]) => `${key} ${value}`)
  const why =
    action === 'del'
      ? `delete ${port} from ${f.who}: ${reason}`
      : `add ${port} to ${f.who}${details.length > 0 ? ` (${details.join(', ')})` : ''}`
  return {
    method: 'PUT',
    path: `${f.base}/ports`,
    body: { action, port, ...extra },
    action: `port.${action}`,
    why,
    process: f.process,
  }
}
