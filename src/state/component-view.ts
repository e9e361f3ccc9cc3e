// A vf's or mirror's view: its components with their ports and vlan settings, its classifier table.
import type { ClassifierEntry, ComponentEntry, PortObject } from '../protocol/bodies.ts'
import { unhandled, type ClassifierChange, type EffectOf } from '../protocol/effects.ts'
import { portParts, type Dir, type VlanTag } from '../protocol/tokens.ts'

export type ComponentView = {
  kind: 'vf' | 'mirror'
  ports?: string[]
  /** As the status lists them: a component, or a worker lcore with none (`type: "unuse"`). */
  components?: ComponentEntry[]
  classifier_table?: ClassifierEntry[]
}

const PORT_ORDER = ['phy', 'vhost', 'ring']
const portOrder = (a: string, b: string) => {
  const [pa, pb] = [portParts(a), portParts(b)]
  return PORT_ORDER.indexOf(pa.type) - PORT_ORDER.indexOf(pb.type) || pa.index - pb.index
}

const portEntry = (kind: ComponentView['kind'], port: string, vlan?: VlanTag): PortObject =>
  kind === 'mirror'
    ? { port }
    : {
        port,
        vlan:
          vlan?.operation === 'add'
            ? { operation: 'add', id: vlan.id, pcp: vlan.pcp }
            : { operation: vlan?.operation ?? 'none', id: 0, pcp: 0 },
      }

const key = (dir: Dir) => (dir === 'rx' ? 'rx_port' : 'tx_port')

function start(components: ComponentEntry[], name: string, core: number, type: string) {
  const entry: ComponentEntry = { core, name, type, rx_port: [], tx_port: [] }
  const unused = components.findIndex((c) => c.core === core && c.name === undefined)
  if (unused !== -1) return components.map((c, i) => (i === unused ? entry : c))
  let at = components.length
  while (at > 0 && components[at - 1]?.core !== core) at--
  if (at === 0) at = components.length // no component on this core yet: it goes last
  return [...components.slice(0, at), entry, ...components.slice(at)]
}

function stop(components: ComponentEntry[], name: string) {
  const at = components.findIndex((c) => c.name === name)
  const gone = components[at]
  if (!gone) return components // stopping an unknown name succeeds and changes nothing
  const rest = components.filter((_, i) => i !== at)
  if (rest.some((c) => c.core === gone.core)) return rest
  return [...rest.slice(0, at), { core: gone.core, type: 'unuse' }, ...rest.slice(at)]
}

function ports(
  view: ComponentView,
  effect: Extract<EffectOf<'vf'>, { kind: 'port.attach' | 'port.detach' }>,
) {
  const field = key(effect.dir)
  const components = view.components?.map((c) => {
    if (c.name !== effect.component) return c
    const kept = (c[field] ?? []).filter((p) => p.port !== effect.port)
    if (effect.kind === 'port.detach') return { ...c, [field]: kept }
    const vlan = effect.kind === 'port.attach' ? effect.vlan : undefined
    return { ...c, [field]: [...kept, portEntry(view.kind, effect.port, vlan)] }
  })
  // A vf or mirror creates a ring or vhost device when it is first attached, and keeps it.
  const known =
    view.ports && effect.kind === 'port.attach' && !view.ports.includes(effect.port)
      ? [...view.ports, effect.port].sort(portOrder)
      : view.ports
  return { ...view, components, ports: known }
}

function classifier(view: ComponentView, effect: ClassifierChange): ComponentView {
  if (!view.classifier_table) return view
  const rest = view.classifier_table.filter((e) => e.port !== effect.port)
  if (effect.kind === 'classifier.del') return { ...view, classifier_table: rest }
  const value = effect.type === 'vlan' ? `${effect.vlan}/${effect.mac}` : effect.mac
  return { ...view, classifier_table: [...rest, { type: effect.type, value, port: effect.port }] }
}

/** The vf's or mirror's view after a successful command, or undefined for an effect it cannot have. */
export function nextComponentView(
  view: ComponentView,
  effect: EffectOf<'vf' | 'mirror'>,
): ComponentView | undefined {
  switch (effect.kind) {
    case 'vf.read':
    case 'mirror.read': {
      if (effect.kind !== `${view.kind}.read`) return undefined
      const { ports, components } = effect.info
      const table = 'classifier_table' in effect.info ? effect.info.classifier_table : undefined
      return { kind: view.kind, ports, components, ...(table ? { classifier_table: table } : {}) }
    }
    case 'component.start': {
      const { name, core, type } = effect
      return view.components
        ? { ...view, components: start(view.components, name, core, type) }
        : view
    }
    case 'component.stop':
      return view.components ? { ...view, components: stop(view.components, effect.name) } : view
    case 'port.attach':
    case 'port.detach':
      return ports(view, effect)
    case 'classifier.add':
    case 'classifier.del':
      return view.kind === 'vf' ? classifier(view, effect) : undefined
    case 'exit':
      return view
    default:
      return unhandled(effect)
  }
}
