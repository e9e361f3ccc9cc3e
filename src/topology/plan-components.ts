// The vf and mirror part of a plan: classifier entries, components and their ports, in safe order.
import type { MirrorInfo, VfInfo } from '../protocol/bodies.ts'
import type { DesiredMirror, DesiredVf } from './document.ts'
import {
  componentsOf,
  entryOf,
  UNTAGGED,
  useText,
  type Component,
  type Entry,
  type PortUse,
} from './normalize.ts'
import { idPath, processId, type ProcessId } from '../protocol/process-id.ts'
import { wire } from '../protocol/tokens.ts'
import type { Context, Phased, Step } from './steps.ts'
import { checkComponents, checkClassifier } from './check-components.ts'

type Dir = 'rx' | 'tx'

/** Steps for one vf or mirror, each with its phase of the design note's order. */
export function planComponents(
  kind: 'vf' | 'mirror',
  id: string,
  live: VfInfo | MirrorInfo,
  wanted: DesiredVf | DesiredMirror,
  context: Context,
  field: string,
): Phased[] {
  const process = processId(kind, Number(id))
  const base = idPath(process)
  const out: Phased[] = []
  const add = (phase: number, step: Step) => out.push({ phase, step })
  const was = componentsOf(live.components)
  const workers = new Set(live.components.map((c) => c.core))
  const phy = new Set(live.ports.filter((p) => p.startsWith('phy:')))
  const want = wanted.components ? componentsOf(wanted.components) : was
  if (wanted.components) checkComponents(field, kind, wanted.components, { workers, phy, context })
  const stays = (c: Component) => want.some((w) => sameComponent(w, c))
  const byName = new Map(was.map((c) => [c.name, c]))

  // Classifier entries (vf): one per port; an absent table keeps those still shown.
  const liveEntries = 'classifier_table' in live ? live.classifier_table.map(entryOf) : []
  const classifierTx = new Set(
    want.filter((c) => c.type === 'classifier_mac').flatMap((c) => c.tx.map((u) => u.port)),
  )
  let entries = liveEntries.filter((e) => classifierTx.has(e.port))
  if ('classifier_table' in wanted && wanted.classifier_table) {
    entries = wanted.classifier_table.map(entryOf)
    checkClassifier(field, wanted.classifier_table, classifierTx)
  }
  const same = (a: Entry, b?: Entry) => b !== undefined && a.vid === b.vid && a.mac === b.mac
  for (const entry of liveEntries)
    if (
      !same(
        entry,
        entries.find((e) => e.port === entry.port),
      )
    )
      add(
        1,
        classifier(
          process,
          base,
          'del',
          entry,
          `the entry on ${entry.port} is not wanted as it is`,
        ),
      )

  for (const c of was) {
    if (stays(c)) {
      const w = want.find((x) => x.name === c.name)!
      for (const dir of ['rx', 'tx'] as const)
        for (const use of c[dir])
          if (!w[dir].some((u) => useText(u) === useText(use)))
            add(
              2,
              detach(
                process,
                base,
                c.name,
                dir,
                use,
                `${c.name} ${dir} ${useText(use)} is not wanted`,
              ),
            )
      continue
    }
    const w = want.find((x) => x.name === c.name)
    const why = w
      ? `${c.name} changes from ${c.type} on core ${c.core} to ${w.type} on core ${w.core}`
      : `${c.name} is not wanted`
    for (const dir of ['rx', 'tx'] as const)
      for (const use of c[dir])
        add(3, detach(process, base, c.name, dir, use, `before stopping: ${why}`))
    add(3, {
      method: 'DELETE',
      path: `${base}/components/${c.name}`,
      action: 'component.stop',
      why: `stop ${c.name}: ${why}`,
      process,
      component: c.name,
    })
  }
  for (const w of want) {
    const old = byName.get(w.name)
    const kept = old !== undefined && sameComponent(w, old) ? old : undefined
    if (!kept)
      add(7, {
        method: 'POST',
        path: `${base}/components`,
        body: { name: w.name, core: w.core, type: w.type },
        action: 'component.start',
        why: `start ${w.name} (${w.type} on core ${w.core})`,
        process,
      })
    for (const dir of ['tx', 'rx'] as const)
      for (const use of w[dir])
        if (!kept?.[dir].some((u) => useText(u) === useText(use)))
          add(8, attach(process, base, w.name, dir, use))
  }
  for (const entry of entries)
    if (
      !same(
        entry,
        liveEntries.find((e) => e.port === entry.port),
      )
    )
      add(9, classifier(process, base, 'add', entry))
  return out
}

const sameComponent = (a: Component, b: Component) =>
  a.name === b.name && a.core === b.core && a.type === b.type

const detach = (
  process: ProcessId,
  base: string,
  name: string,
  dir: Dir,
  use: PortUse,
  why: string,
): Step => ({
  method: 'PUT',
  path: `${base}/components/${name}/ports`,
  body: { action: 'detach', port: wire(use.port), dir },
  action: 'port.detach',
  why: `detach ${use.port} ${dir} from ${name}: ${why}`,
  process,
  component: name,
})

function attach(process: ProcessId, base: string, name: string, dir: Dir, use: PortUse): Step {
  const body: Record<string, unknown> = { action: 'attach', port: wire(use.port), dir }
  if (process.kind === 'vf' && use.vlan) body.vlan = use.vlan
  return {
    method: 'PUT',
    path: `${base}/components/${name}/ports`,
    body,
    action: 'port.attach',
    why: `attach ${useText(use)} ${dir} to ${name}`,
    process,
    component: name,
  }
}

function classifier(
  process: ProcessId,
  base: string,
  action: 'add' | 'del',
  e: Entry,
  why?: string,
): Step {
  const body: Record<string, unknown> =
    e.vid === UNTAGGED
      ? { action, type: 'mac', mac_address: e.mac, port: e.port }
      : { action, type: 'vlan', vlan: e.vid, mac_address: e.mac, port: e.port }
  const shown = e.vid === UNTAGGED ? e.mac : `${e.vid}/${e.mac}`
  return {
    method: 'PUT',
    path: `${base}/classifier_table`,
    body,
    action: `classifier.${action}`,
    why: `${action === 'add' ? 'add' : 'delete'} classifier entry ${shown} -> ${e.port}${why ? `: ${why}` : ''}`,
    process,
  }
}
