// What a desired document changes, per process, as lines a user reads: + added, - removed, ~ changed.
import type { MirrorInfo, NfvInfo, VfInfo } from '../../protocol/bodies.ts'
import type { DesiredDocument } from '../../topology/document.ts'
import type { ShownPlan } from '../../topology/plan.ts'
import {
  componentsOf,
  entryOf,
  useText,
  UNTAGGED,
  type Component,
} from '../../topology/normalize.ts'
import type { ForwarderState, ForwarderWant } from '../../topology/plan-forwarder.ts'
import { wantedNfv } from '../../topology/plan-nfv.ts'
import { plansPrimary, wantedPrimary } from '../../topology/plan-primary.ts'
import type { Pipe } from '../../topology/primary-forwarder.ts'
import type { TopologyDocument } from '../../topology/read-topology.ts'

const isReadable = <T extends object>(state: T | { error: string } | undefined): state is T =>
  state !== undefined && !('error' in state)

/** The diff of every process the desired document names (the planner has accepted it). */
export function renderDiff(live: TopologyDocument, desired: DesiredDocument): string[] {
  const out: string[] = []
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) out.push(title, ...lines.map((line) => `  ${line}`))
  }
  const primary = plansPrimary(desired.primary) && wantedPrimary(live.primary, desired.primary, {})
  if (primary) {
    // A pipe is shown with its rings: one over other rings goes and comes.
    const withRings = (pipes: Pipe[]) => (port: string) => {
      const pipe = pipes.find(({ id }) => port === `pipe:${id}`)
      return pipe ? `${port} (rx ring:${pipe.rx}, tx ring:${pipe.tx})` : port
    }
    const { live: was, want, livePipes, pipes } = primary
    section('primary', forwarderLines(was, want, withRings(livePipes), withRings(pipes)))
  }
  for (const [id, wanted] of Object.entries(desired.vfs ?? {})) {
    const state = live.vfs[id]
    if (!isReadable<VfInfo>(state)) continue
    const was = componentsOf(state.components)
    const want = wanted.components ? componentsOf(wanted.components) : was
    const lines = componentLines(was, want)
    const tx = new Set(
      want.filter((c) => c.type === 'classifier_mac').flatMap((c) => c.tx.map((u) => u.port)),
    )
    const before = state.classifier_table.map(entryOf)
    const after = wanted.classifier_table?.map(entryOf) ?? before.filter((e) => tx.has(e.port))
    const text = (e: ReturnType<typeof entryOf>) =>
      `classifier ${e.vid === UNTAGGED ? e.mac : `${e.vid}/${e.mac}`} -> ${e.port}`
    lines.push(...setLines(before.map(text), after.map(text)))
    section(`vf ${id}`, lines)
  }
  for (const [id, wanted] of Object.entries(desired.mirrors ?? {})) {
    const state = live.mirrors[id]
    if (!isReadable<MirrorInfo>(state) || !wanted.components) continue
    section(
      `mirror ${id}`,
      componentLines(componentsOf(state.components), componentsOf(wanted.components)),
    )
  }
  for (const [id, wanted] of Object.entries(desired.nfvs ?? {})) {
    const state = live.nfvs[id]
    if (!isReadable<NfvInfo>(state)) continue
    section(`nfv ${id}`, forwarderLines(state, wantedNfv(id, state, wanted, {})))
  }
  return out
}

/** An nfv's or the primary's forwarder: its status, ports (named as given) and patches. */
function forwarderLines(
  live: ForwarderState,
  want: ForwarderWant,
  wasNamed = (port: string) => port,
  named = wasNamed,
): string[] {
  const lines = live.status === want.status ? [] : [`~ status ${live.status} -> ${want.status}`]
  const port = (name: (port: string) => string) => (p: string) => `port ${name(p)}`
  lines.push(...setLines(live.ports.map(port(wasNamed)), want.ports.map(port(named))))
  const patch = ({ src, dst }: { src: string; dst: string }) => `patch ${src} -> ${dst}`
  lines.push(...setLines(live.patches.map(patch), want.patches.map(patch)))
  return lines
}

/** `- x` for what goes, `+ x` for what comes. */
const setLines = (before: string[], after: string[]) => [
  ...before.filter((x) => !after.includes(x)).map((x) => `- ${x}`),
  ...after.filter((x) => !before.includes(x)).map((x) => `+ ${x}`),
]

function componentLines(was: Component[], want: Component[]): string[] {
  const lines: string[] = []
  const where = (c: Component) => `${c.type} on core ${c.core}`
  for (const c of was)
    if (!want.some((w) => w.name === c.name)) lines.push(`- component ${c.name} (${where(c)})`)
  for (const w of want) {
    const c = was.find((x) => x.name === w.name)
    if (!c) lines.push(`+ component ${w.name} (${where(w)})`)
    else if (where(c) !== where(w)) lines.push(`~ component ${w.name}: ${where(c)} -> ${where(w)}`)
    for (const dir of ['rx', 'tx'] as const) {
      const ports = (x?: Component) => (x?.[dir] ?? []).map((u) => `${w.name} ${dir} ${useText(u)}`)
      lines.push(...setLines(ports(c), ports(w)))
    }
  }
  return lines
}

/**
 * The diff per process, then the numbered steps in the order they run (a step that waits for
 * steps of other processes says which, and why) and their summary, then the warnings.
 */
export function describePlan(
  live: TopologyDocument,
  desired: DesiredDocument,
  plan: ShownPlan,
): string {
  const warnings = (plan.warnings ?? []).map((w) => `  ${w.why}`)
  const warned = warnings.length > 0 ? ['Warnings:', ...warnings] : []
  if (plan.steps.length === 0)
    return ['No changes: the live topology already matches.', ...warned, ''].join('\n')
  const lines = ['Changes:', ...renderDiff(live, desired).map((line) => `  ${line}`), '']
  lines.push(`Steps (${plan.steps.length}):`)
  const width = String(plan.steps.length).length
  plan.steps.forEach((step, i) => {
    lines.push(`  ${String(i + 1).padStart(width)}. ${step.why}`)
    const body = step.body === undefined ? '' : ` ${JSON.stringify(step.body)}`
    lines.push(`  ${' '.repeat(width)}  ${step.method} ${step.path}${body}`)
    if (step.after)
      lines.push(`  ${' '.repeat(width)}  after ${step.after.steps.join(', ')}: ${step.after.why}`)
  })
  const counts = Object.entries(plan.summary).map(([action, n]) => `${n} ${action}`)
  lines.push('', `Summary: ${counts.join(', ')}`, '', ...(warned.length > 0 ? [...warned, ''] : []))
  return lines.join('\n')
}
