// Reconciling a host's local desired document with etcd's after they diverged: a three-way merge.
import type { DesiredDocument } from '../topology/document.ts'

/**
 * Merges per process against `base`, the document of the last desired revision this host saw in
 * etcd (`{}` when it never saw one). The local document is `base` plus the changes made here since
 * then, so it stands at base's revision; etcd's stands at its own, newer or equal. Per process:
 *
 * | local vs base | etcd vs base | result | lost                     |
 * |---------------|--------------|--------|--------------------------|
 * | same          | same         | base   |                          |
 * | changed       | same         | local  |                          |
 * | same          | changed      | etcd   |                          |
 * | changed       | changed, =   | etcd   |                          |
 * | changed       | changed, ≠   | etcd   | the process's local edit |
 *
 * So the newer revision wins: etcd's, when it moved past base. The tie, a process changed on both
 * sides with no revision to tell which came later (the local edit has none until it is written),
 * goes to etcd, the source of truth; the local edit is reported as lost, never dropped silently.
 * A process is a unit: `vfs/2` is taken whole from one side. Absent means not managed, so a removal
 * is a change like any other. Members outside the sections (primary, pcaps) are units of their own.
 */
export function mergeDesired(
  base: DesiredDocument,
  local: DesiredDocument,
  etcd: DesiredDocument,
): { document: DesiredDocument; lost: string[] } {
  const [b, l, e] = [units(base), units(local), units(etcd)]
  const merged = new Map<string, unknown>()
  const lost: string[] = []
  for (const unit of new Set([...b.keys(), ...l.keys(), ...e.keys()])) {
    const [was, here, there] = [b.get(unit), l.get(unit), e.get(unit)]
    const localChanged = !same(here, was)
    const etcdChanged = !same(there, was)
    const value = localChanged && !etcdChanged ? here : there
    if (localChanged && etcdChanged && !same(here, there)) lost.push(unit)
    if (value !== undefined) merged.set(unit, value)
  }
  return { document: fromUnits(merged), lost: lost.sort() }
}

const SECTIONS = new Set(['nfvs', 'vfs', 'mirrors'])

/** `nfvs/1`, `vfs/2`, ... and `primary`: each process (or other member) and its value. */
function units(document: DesiredDocument): Map<string, unknown> {
  const out = new Map<string, unknown>()
  for (const [member, value] of Object.entries(document)) {
    if (value === undefined) continue
    if (!SECTIONS.has(member)) out.set(member, value)
    else
      for (const [id, process] of Object.entries(value as Record<string, unknown>))
        out.set(`${member}/${id}`, process)
  }
  return out
}

function fromUnits(merged: Map<string, unknown>): DesiredDocument {
  const out: Record<string, unknown> = {}
  for (const [unit, value] of merged) {
    const [member, id] = unit.split('/') as [string, string | undefined]
    if (id === undefined) out[member] = value
    else ((out[member] ??= {}) as Record<string, unknown>)[id] = value
  }
  return out
}

/** JSON with object keys sorted: two values that mean the same are the same text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)))
      : item,
  )
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b)

/** Whether two desired documents ask for the same processes (empty sections count as absent). */
export function sameDesired(a: DesiredDocument, b: DesiredDocument): boolean {
  return same(Object.fromEntries(units(a)), Object.fromEntries(units(b)))
}
