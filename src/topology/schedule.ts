// The order a plan's steps run in, across processes: a step that makes packets flow into a ring
// waits until every reader of that ring in the target configuration is attached and started, and,
// tearing down, a step that stops a ring's reader waits until the ring's senders have stopped.
// Also the rings a target configuration sends into that nothing reads: a warning, never a refusal
// (SPP's own CLI builds chains one step at a time). Pure.
import { idText } from '../protocol/process-id.ts'
import { deviceOf, moversOf, type Mover, type MovingParts } from './movers.ts'
import type { Step, Warning } from './steps.ts'

/** A pipe port `pipe:id` of a 2020 primary: it reads ring `rx` and sends into ring `tx`. */
export type PipeRings = { id: number; rx: number; tx: number }
/** A configuration as the schedule reads it: what moves packets, and the primary's pipes. */
export type Moving = { document: MovingParts; pipes: readonly PipeRings[] }

/**
 * A step's stage, run one after the other: the tear-down everywhere (0: the secondaries', and the
 * stop and patch reset of a 2020 primary's forwarder), then the primary's port deletes and adds
 * (1: after the others stopped using a port, before they build on one), then the build-up (2).
 * The planner orders every process's steps by phase, so each process meets its stages in order.
 */
export function stageOf(step: Step): 0 | 1 | 2 {
  const { action } = step
  if (step.process.kind === 'primary')
    return action === 'forward.stop' || action === 'patches.reset'
      ? 0
      : action === 'port.del' || action === 'port.add'
        ? 1
        : 2
  return TEAR_DOWN.has(action) ? 0 : 2
}

/** The actions that take something away (design note, phases 1-6). */
const TEAR_DOWN = new Set([
  'classifier.del',
  'port.detach',
  'component.stop',
  'forward.stop',
  'patches.reset',
  'port.del',
])

/** Packets sent into a ring stay on the host until someone reads them; other ports leave it. */
const needsReader = (port: string) => port.startsWith('ring:')

/** What moves packets in a configuration, every port named by its device, pipes by their rings. */
function sideOf({ document, pipes }: Moving) {
  const byPort = new Map(pipes.map((pipe) => [`pipe:${pipe.id}`, pipe]))
  const read = (port: string) => {
    const pipe = byPort.get(deviceOf(port))
    return pipe ? `ring:${pipe.rx}` : deviceOf(port)
  }
  const write = (port: string) => {
    const pipe = byPort.get(deviceOf(port))
    return pipe ? `ring:${pipe.tx}` : deviceOf(port)
  }
  const movers = moversOf(document).map((m): Mover => ({
    ...m,
    reads: m.reads.map(read),
    writes: m.writes.map(write),
  }))
  return { movers, read, write, running: (process: string) => forwarderRuns(document, process) }
}
type Side = ReturnType<typeof sideOf>

function forwarderRuns(document: MovingParts, process: string): boolean {
  const [kind, id = ''] = process.split(':')
  const forwarder =
    kind === 'primary'
      ? document.primary && 'forwarder' in document.primary
        ? document.primary.forwarder
        : undefined
      : kind === 'nfv'
        ? document.nfvs?.[id]
        : undefined
  const status = forwarder && 'status' in forwarder ? forwarder.status : undefined
  return status === 'Running' || status === 'running'
}

/** A mover as a reason names it: `vf:2 fwd1`, `nfv:1 patch phy:0 -> ring:0`. */
export const moverText = (m: Pick<Mover, 'process' | 'name' | 'kind'>) =>
  m.kind === 'patch'
    ? `${m.process} patch ${m.name.replace('>', ' -> ')}`
    : `${m.process} ${m.name}`

/** A ring, and the mover a step starts or stops on it. */
type Use = { ring: string; mover: string }
/**
 * What one step does to the packets: the rings it makes flow into (`sends`), the rings whose
 * reading it is part of starting (`readies`), and, tearing down, the rings it stops sending into
 * (`unsends`) and stops reading (`unreads`).
 */
type Flow = { sends: Use[]; readies: Use[]; unsends: Use[]; unreads: Use[] }

const componentOf = (step: Step): string | undefined =>
  step.component ??
  (step.action === 'component.start' && typeof step.body?.name === 'string'
    ? step.body.name
    : undefined)
const forwards = (step: Step) => step.process.kind === 'nfv' || step.process.kind === 'primary'
const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** Each step's flow, walking the plan in its order (a forwarder runs or not as the steps go). */
function flowsOf(steps: readonly Step[], live: Side, target: Side): Flow[] {
  const running = new Map<string, boolean>()
  return steps.map((step): Flow => {
    const flow: Flow = { sends: [], readies: [], unsends: [], unreads: [] }
    const process = idText(step.process)
    const runs = running.get(process) ?? live.running(process)
    const name = componentOf(step)
    const own = (side: Side) => side.movers.filter((m) => m.process === process)
    const component = (side: Side) => own(side).find((m) => m.name === name && m.kind !== 'patch')
    const mover = (m: Mover | undefined, fallback: string) => (m ? moverText(m) : fallback)
    const patches = (side: Side) => own(side).filter((m) => m.kind === 'patch')
    const stopsPatches = () => {
      for (const p of patches(live)) {
        flow.unreads.push(...p.reads.map((ring) => ({ ring, mover: moverText(p) })))
        flow.unsends.push(...p.writes.map((ring) => ({ ring, mover: moverText(p) })))
      }
    }
    const body = step.body ?? {}
    switch (step.action) {
      case 'component.start': {
        const c = component(target)
        if (c) flow.readies.push(...c.reads.map((ring) => ({ ring, mover: moverText(c) })))
        break
      }
      case 'port.attach':
      case 'port.detach': {
        const side = step.action === 'port.attach' ? target : live
        const use = { ring: deviceOf(text(body.port)), mover: mover(component(side), name ?? '') }
        const attach = step.action === 'port.attach'
        if (body.dir === 'rx') (attach ? flow.readies : flow.unreads).push(use)
        else (attach ? flow.sends : flow.unsends).push(use)
        break
      }
      case 'classifier.add':
      case 'classifier.del': {
        const add = step.action === 'classifier.add'
        const ring = deviceOf(text(body.port))
        const c = own(add ? target : live).find((m) => m.kind === 'classifier')
        ;(add ? flow.sends : flow.unsends).push({ ring, mover: mover(c, process) })
        break
      }
      case 'patch.set':
        if (runs) {
          const [src, dst] = [text(body.src), text(body.dst)]
          const patch = moverText({ process, name: `${src}>${dst}`, kind: 'patch' })
          flow.readies.push({ ring: target.read(src), mover: patch })
          flow.sends.push({ ring: target.write(dst), mover: patch })
        }
        break
      case 'forward.start':
        running.set(process, true)
        for (const p of patches(target)) {
          flow.readies.push(...p.reads.map((ring) => ({ ring, mover: moverText(p) })))
          flow.sends.push(...p.writes.map((ring) => ({ ring, mover: moverText(p) })))
        }
        break
      case 'forward.stop':
      case 'patches.reset':
      case 'port.del':
        if (forwards(step) && runs) stopsPatches()
        // Deleting a port stops forwarding; a reset forwarder runs on, with no patch.
        if (step.action !== 'patches.reset') running.set(process, false)
        break
    }
    const rings = (uses: Use[]) => uses.filter((use) => needsReader(use.ring))
    return {
      sends: rings(flow.sends),
      readies: rings(flow.readies),
      unsends: rings(flow.unsends),
      unreads: rings(flow.unreads),
    }
  })
}

/**
 * Whether two steps of one process keep the planner's order between them: a forwarder's steps
 * always; a vf's or mirror's when they are about the same component, or one is a classifier entry
 * (deleted before any detach, added once the ports it names are attached).
 */
const keepsOrder = (a: Step, b: Step) =>
  forwards(a) ||
  a.action.startsWith('classifier.') ||
  b.action.startsWith('classifier.') ||
  componentOf(a) === undefined ||
  componentOf(a) === componentOf(b)

/** A step waited for, and why: the ring, and the mover the other step starts or stops on it. */
type Wait = { on: number; ring: string; mover: string }

/**
 * The steps in the order they run, each with the steps it waits for (`after`) besides the one
 * before it of its own process; and the warnings. `planned`: the processes the document plans, as
 * `vf:2` (a ring nobody reads is only theirs to warn about when they send into it or stopped
 * reading it).
 */
export function schedule(
  steps: readonly Step[],
  live: Moving,
  target: Moving,
  planned: ReadonlySet<string>,
): { steps: Step[]; warnings: Warning[] } {
  const [was, will] = [sideOf(live), sideOf(target)]
  const flows = flowsOf(steps, was, will)
  const stages = steps.map(stageOf)
  const processes = steps.map((step) => idText(step.process))
  // Data-flow waits: a sender after the readers of its ring; a reader's stop after the senders'.
  const waits: Wait[][] = steps.map((_, i) => {
    const out: Wait[] = []
    const [mine, stage] = [flows[i]!, stages[i]]
    flows.forEach((other, j) => {
      if (j === i || stages[j] !== stage) return
      for (const { ring } of mine.sends)
        for (const r of other.readies) if (r.ring === ring) out.push({ on: j, ...r })
      for (const { ring } of mine.unreads)
        for (const s of other.unsends) if (s.ring === ring) out.push({ on: j, ...s })
    })
    return out
  })
  const before: number[][] = steps.map((step, i) =>
    steps.flatMap((other, j) =>
      j < i && processes[j] === processes[i] && stages[j] === stages[i] && keepsOrder(other, step)
        ? [j]
        : [],
    ),
  )
  // Each step as early as the steps it follows allow, the planner's order otherwise: a plan
  // where nothing waits runs as planned, and a step that waits only moves the steps of its own
  // process that keep their order with it. A loop of waits is broken at its lowest step.
  const order: number[] = []
  const loops: { step: number; waits: Wait[] }[] = []
  const done = new Set<number>()
  for (const stage of [0, 1, 2]) {
    let left = steps.flatMap((_, i) => (stages[i] === stage ? [i] : []))
    while (left.length > 0) {
      let next = left.find(
        (i) => before[i]!.every((j) => done.has(j)) && waits[i]!.every((w) => done.has(w.on)),
      )
      if (next === undefined) {
        next = left[0]!
        const broken = waits[next]!.filter((w) => !done.has(w.on))
        loops.push({ step: next, waits: broken })
        waits[next] = waits[next]!.filter((w) => done.has(w.on))
      }
      done.add(next)
      order.push(next)
      left = left.filter((i) => i !== next)
    }
  }
  const numberOf = new Map(order.map((i, at) => [i, at + 1]))
  const ordered = order.map((i): Step => {
    const step = { ...steps[i]! }
    if (stages[i] === 2 && flows[i]!.sends.length > 0)
      step.sends = [...new Set(flows[i]!.sends.map((use) => use.ring))]
    if (waits[i]!.length > 0)
      step.after = {
        steps: [...new Set(waits[i]!.map((w) => numberOf.get(w.on)!))].sort((a, b) => a - b),
        why: whyOf(stages[i] === 0, waits[i]!),
      }
    return step
  })
  const warnings = [
    ...deadEnds(was, will, planned),
    ...loops.map(({ step, waits: broken }): Warning => {
      const [ring = ''] = broken.map((w) => w.ring)
      const others = [...new Set(broken.map((w) => `${w.mover} (step ${numberOf.get(w.on)})`))]
      const what =
        stages[step] === 0
          ? `stops reading ${ring} before ${others.join(', ')} stops sending into it`
          : `sends into ${ring} before ${others.join(', ')} reads it`
      return {
        port: ring,
        why: `a loop: step ${numberOf.get(step)} (${steps[step]!.why}) ${what}, which waits for it in turn`,
      }
    }),
  ]
  return { steps: ordered, warnings }
}

/** `waits for the readers of ring:0 (vf:2 fwd1) to be attached and started`. */
function whyOf(tearDown: boolean, waits: Wait[]): string {
  const byRing = new Map<string, Set<string>>()
  for (const { ring, mover } of waits) byRing.set(ring, (byRing.get(ring) ?? new Set()).add(mover))
  const rings = [...byRing].map(([ring, movers]) => `${ring} (${[...movers].join(', ')})`)
  const list =
    rings.length === 1 ? rings[0] : `${rings.slice(0, -1).join(', ')} and ${rings.at(-1)}`
  return tearDown
    ? `waits for the senders into ${list} to stop`
    : `waits for the readers of ${list} to be attached and started`
}

/**
 * The rings the target configuration sends into while nothing reads them (its packets are dropped
 * there), where a planned process sends into it or stopped reading it.
 */
function deadEnds(live: Side, target: Side, planned: ReadonlySet<string>): Warning[] {
  const reads = (side: Side, ring: string) =>
    side.movers.filter((m) => m.running && m.reads.includes(ring))
  const senders = new Map<string, Mover[]>()
  for (const m of target.movers) {
    if (!m.running || m.reads.length === 0) continue
    // A classifier sends only where its table sends (what matches no entry is dropped by it).
    const { table } = m
    const writes = table
      ? m.writes.filter((p) => table.some((e) => deviceOf(e.port) === p))
      : m.writes
    for (const ring of new Set(writes)) {
      if (!needsReader(ring) || reads(target, ring).length > 0) continue
      senders.set(ring, [...(senders.get(ring) ?? []), m])
    }
  }
  const ours = (ring: string, movers: Mover[]) =>
    movers.some((m) => planned.has(m.process)) ||
    reads(live, ring).some((m) => planned.has(m.process))
  return [...senders]
    .filter(([ring, movers]) => ours(ring, movers))
    .map(([ring, movers]) => ({
      port: ring,
      why: `${ring}: ${movers.map(moverText).join(', ')} ${movers.length === 1 ? 'sends' : 'send'} into it and nothing reads it: what is sent there is dropped`,
    }))
}
