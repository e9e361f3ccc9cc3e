// Commands known to hang, kill or corrupt a process, refused before they reach it: pure verdicts
// on what the controller knows of the process (its view) and the change a command would make.
import type { Change } from '../protocol/effects.ts'
import { isClassifier } from '../protocol/release.ts'
import { portParts, wire } from '../protocol/tokens.ts'
import type { ProcessView } from './process-view.ts'

/** The worker lcores a vf or mirror reported: its unused cores and the cores of its components. */
export const workerCores = (view: ProcessView): number[] | undefined =>
  view.kind === 'vf' || view.kind === 'mirror'
    ? view.components && [...new Set(view.components.map((c) => c.core))].sort((a, b) => a - b)
    : undefined

/**
 * Whether this change can only be checked once the process's view is known (its status read on
 * this connection): a component start on a vf or mirror (its worker lcores, its components' names),
 * a patch or a port deletion on an nfv (its ports and patches), a port added to a primary.
 */
export function needsView(view: ProcessView, change: Change): boolean {
  switch (view.kind) {
    case 'vf':
    case 'mirror':
      return change.kind === 'component.start' && view.components === undefined
    case 'nfv':
      return (
        (change.kind === 'patch.set' || change.kind === 'port.del') &&
        (view.ports === undefined || view.patches === undefined)
      )
    case 'primary':
      return change.kind === 'port.add' && view.status === undefined
    default:
      return false
  }
}

const quoted = (text: string) => JSON.stringify(text)

/**
 * Why this change would hang, kill or corrupt the process, or undefined. A vf or mirror: a
 * component started on the main lcore waits forever for a worker that does not exist (the main
 * lcore never appears in the status, so any core not listed there is refused), and so does a vf's
 * second classifier on a core that runs one; a second component of a name is refused by the
 * process anyway, and said here first. An nfv: a patch naming a port it does not have (an 18.11 nfv
 * says nothing and does nothing), or deleting a port another is patched to (the patch is left to a
 * freed port, `udf`, recorded from the real processes). A primary: see primaryHazard.
 */
export function hazardOf(view: ProcessView, change: Change): string | undefined {
  switch (view.kind) {
    case 'vf':
    case 'mirror':
      return componentHazard(view, change)
    case 'nfv':
      return nfvHazard(view, change)
    case 'primary':
      return primaryHazard(view, change)
    default:
      return undefined
  }
}

function componentHazard(view: ProcessView & { kind: 'vf' | 'mirror' }, change: Change) {
  if (change.kind !== 'component.start') return
  const cores = workerCores(view)
  if (!cores) return
  const { name, core, type } = change
  if (view.components?.some((c) => c.name === name))
    return `invalid key(name): ${quoted(name)} (this ${view.kind} already runs a component of that name)`
  if (!cores.includes(core)) {
    const listed = cores.length ? cores.join(', ') : 'none'
    return `invalid key(core): ${core} (not a worker lcore of this ${view.kind}: its worker lcores are ${listed}; the main lcore would hang it)`
  }
  const busy = view.components?.some((c) => c.core === core && isClassifier(c.type))
  if (isClassifier(type) && busy) {
    return `invalid key(core): ${core} (already runs a classifier_mac; a second one on the same core would hang the vf)`
  }
  return
}

function nfvHazard(view: ProcessView & { kind: 'nfv' }, change: Change) {
  const { ports, patches } = view
  if (!ports || !patches) return
  if (change.kind === 'patch.set') {
    const known = ports.map(wire)
    for (const [key, port] of [
      ['src', change.src],
      ['dst', change.dst],
    ] as const)
      if (!known.includes(wire(port)))
        return `invalid key(${key}): ${quoted(port)} (not a port of this nfv: its ports are ${ports.join(', ') || 'none'})`
  }
  if (change.kind === 'port.del') {
    const into = patches.find((p) => wire(p.dst) === change.port && wire(p.src) !== change.port)
    if (into)
      return `invalid key(port): ${quoted(change.port)} (${into.src} is patched to it: deleting it would leave that patch to a freed port, udf; reset the patches first)`
  }
  return
}

/**
 * A 2020 primary keeps a list of the ports it added, and deletes by position in that list: an add
 * that fails (a ring beyond its `-n`) stays listed, and a port added twice is listed twice, after
 * which a `del` frees another port than the one named (the recorded primary went on listing a
 * deleted port). Refused: a ring it does not have, and a port or pipe its status already lists.
 */
function primaryHazard(view: ProcessView & { kind: 'primary' }, change: Change) {
  if (change.kind !== 'port.add' || !view.status) return
  const ring = ringHazard(view, change.port, 'the primary would fail to add it and keep it listed')
  if (ring) return ring
  const status = view.status as { forwarder?: { ports?: unknown }; pipes?: unknown }
  const listed = Array.isArray(status.forwarder?.ports) ? (status.forwarder.ports as unknown[]) : []
  const pipes = Array.isArray(status.pipes) ? (status.pipes as { id?: unknown }[]) : []
  const { type, index } = portParts(change.port)
  const has = listed.includes(change.port) || (type === 'pipe' && pipes.some((p) => p.id === index))
  if (has)
    return `invalid key(port): ${quoted(change.port)} (the primary has it already: a second add lists it twice, and a del then frees another port)`
  return
}

/**
 * Why a ring the primary does not have (beyond its `-n`) must not be asked of a process, or
 * undefined when it has it or its rings are not known. A vf or mirror that fails to create a ring
 * fails every later change, for good (recorded from the real processes).
 */
export function ringHazard(
  primary: ProcessView | undefined,
  port: string,
  consequence: string,
  key = 'port',
): string | undefined {
  if (primary?.kind !== 'primary' || !primary.status || !port.startsWith('ring:')) return
  const rings = primary.status.ring_ports.map((r) => r.id)
  if (rings.includes(portParts(port).index)) return
  return `invalid key(${key}): ${quoted(port)} (${noRing(port, rings)}; ${consequence})`
}

/**
 * A ring the primary does not have (beyond its `-n`), and the rings it has, in the one wording
 * of a request's 400 and a plan's refusal: `the primary has no ring:9: its rings are ring:0 to
 * ring:3`.
 */
export function noRing(port: string, rings: Iterable<number>): string {
  const ids = [...rings]
  const have = ids.length
    ? `its rings are ring:${Math.min(...ids)} to ring:${Math.max(...ids)}`
    : 'it has no rings'
  return `the primary has no ${port}: ${have}`
}
