// The vf and mirror commands: components, their ports, the vf's classifier table.
import {
  acknowledged,
  decodeMirrorStatus,
  decodeVfStatus,
  marksOf,
  type Dir,
  type MirrorInfo,
  type VfInfo,
  type VlanTag,
} from './component-status.ts'
import type { Change } from '../effects.ts'
import { once } from '../replies.ts'
import type { Command } from '../command.ts'

export type {
  ClassifierEntry,
  ComponentEntry,
  Dir,
  MirrorInfo,
  PortObject,
  VfInfo,
  VlanTag,
} from './component-status.ts'

const change = (line: string, metric: string, effect: Change): Command => ({
  read: false,
  line,
  decode: acknowledged,
  metric,
  effect,
})

const vlanSuffix = (vlan: VlanTag | undefined) =>
  vlan === undefined
    ? ''
    : vlan.operation === 'add'
      ? ` add_vlantag ${vlan.id} ${vlan.pcp}`
      : ' del_vlantag'

/** Commands common to vf and mirror; every value is already checked to be one safe token. */
const componentCommands = {
  componentStart: (name: string, core: number, type: string) =>
    change(`component start ${name} ${core} ${type}`, 'component start', {
      kind: 'component.start',
      name,
      core,
      type,
    }),
  componentStop: (name: string) =>
    change(`component stop ${name}`, 'component stop', { kind: 'component.stop', name }),
  portDel: (port: string, dir: Dir, component: string) =>
    change(`port del ${port} ${dir} ${component}`, 'port del', {
      kind: 'port.detach',
      component,
      port,
      dir,
    }),
}

/** What the shared vf and mirror routes need; a mirror's `portAdd` never carries a vlan. */
export type ComponentCommands<Info> = typeof componentCommands & {
  status(): Command<Info>
  portAdd(port: string, dir: Dir, component: string, vlan?: VlanTag): Command
}

const vfStatus = once(decodeVfStatus)
const mirrorStatus = once(decodeMirrorStatus)

export const vfCommands = {
  ...componentCommands,
  status: (): Command<VfInfo> => ({
    read: true,
    line: 'status',
    decode: vfStatus,
    metric: 'status',
    observe: (info) => ({ kind: 'vf.read', info, marks: marksOf(info) }),
  }),
  portAdd: (port: string, dir: Dir, component: string, vlan?: VlanTag) =>
    change(`port add ${port} ${dir} ${component}${vlanSuffix(vlan)}`, 'port add', {
      kind: 'port.attach',
      component,
      port,
      dir,
      ...(vlan ? { vlan } : {}),
    }),
  /** `vlan` is the vid of a `vlan` entry; a `mac` entry has none. */
  classifierTable: (action: 'add' | 'del', mac: string, port: string, vlan?: number) =>
    change(
      vlan === undefined
        ? `classifier_table ${action} mac ${mac} ${port}`
        : `classifier_table ${action} vlan ${vlan} ${mac} ${port}`,
      `classifier_table ${action}`,
      {
        kind: action === 'add' ? 'classifier.add' : 'classifier.del',
        type: vlan === undefined ? 'mac' : 'vlan',
        mac,
        port,
        ...(vlan === undefined ? {} : { vlan }),
      },
    ),
}

export const mirrorCommands = {
  ...componentCommands,
  status: (): Command<MirrorInfo> => ({
    read: true,
    line: 'status',
    decode: mirrorStatus,
    metric: 'status',
    observe: (info) => ({ kind: 'mirror.read', info, marks: marksOf(info) }),
  }),
  portAdd: (port: string, dir: Dir, component: string) =>
    change(`port add ${port} ${dir} ${component}`, 'port add', {
      kind: 'port.attach',
      component,
      port,
      dir,
    }),
}
