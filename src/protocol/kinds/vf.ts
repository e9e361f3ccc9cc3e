// The vf commands: status, components, their ports with vlan settings, the classifier table.
import type { VfInfo } from '../bodies.ts'
import { change, statusRead, type Command } from '../command.ts'
import { once } from '../replies.ts'
import type { Dir, VlanTag } from '../tokens.ts'
import { acknowledged, componentCommands, decodeVfStatus, shownBy } from './components.ts'

const vlanSuffix = (vlan: VlanTag | undefined) =>
  vlan === undefined
    ? ''
    : vlan.operation === 'add'
      ? ` add_vlantag ${vlan.id} ${vlan.pcp}`
      : ' del_vlantag'

const decodeStatus = once(decodeVfStatus)

export const vfCommands = {
  ...componentCommands,
  status: (): Command<VfInfo> =>
    statusRead(decodeStatus, (info) => ({ kind: 'vf.read', info, shows: shownBy(info) })),
  portAdd: (port: string, dir: Dir, component: string, vlan?: VlanTag) =>
    change(
      `port add ${port} ${dir} ${component}${vlanSuffix(vlan)}`,
      'port add',
      {
        kind: 'port.attach',
        component,
        port,
        dir,
        ...(vlan ? { vlan } : {}),
      },
      acknowledged,
    ),
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
      acknowledged,
    ),
}
