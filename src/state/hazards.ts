// Commands known to hang a vf or mirror for good, refused before they reach it.
import type { Change } from '../protocol/effects.ts'
import { isClassifier } from '../protocol/release.ts'
import type { ProcessView } from './process-view.ts'

/** The worker lcores a vf or mirror reported: its unused cores and the cores of its components. */
export const workerCores = (view: ProcessView): number[] | undefined =>
  view.kind === 'vf' || view.kind === 'mirror'
    ? view.components && [...new Set(view.components.map((c) => c.core))].sort((a, b) => a - b)
    : undefined

/**
 * Whether this change can only be checked once the process's worker lcores are known: a
 * component start on a vf or mirror whose status this connection has not read yet.
 */
export const needsCores = (view: ProcessView, change: Change): boolean =>
  change.kind === 'component.start' &&
  (view.kind === 'vf' || view.kind === 'mirror') &&
  workerCores(view) === undefined

/**
 * Why this change would hang the process (../shared/spp-protocol.md §4.6.1, §6.5), or undefined.
 * A component started on the main lcore waits forever for a worker that does not exist (the main
 * lcore never appears in the status, so any core not listed there is refused), and so does a vf's
 * second classifier on a core that already runs one.
 */
export function hazardOf(view: ProcessView, change: Change): string | undefined {
  if (change.kind !== 'component.start' || (view.kind !== 'vf' && view.kind !== 'mirror')) return
  const cores = workerCores(view)
  if (!cores) return
  const { core, type } = change
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
