// The mirror commands: status, components and their ports (a mirror port has no vlan setting).
import type { MirrorInfo } from '../bodies.ts'
import { change, statusRead, type Command } from '../command.ts'
import { once } from '../replies.ts'
import type { Dir } from '../tokens.ts'
import { acknowledged, componentCommands, decodeMirrorStatus, shownBy } from './components.ts'

const decodeStatus = once(decodeMirrorStatus)

export const mirrorCommands = {
  ...componentCommands,
  status: (): Command<MirrorInfo> =>
    statusRead(decodeStatus, (info) => ({ kind: 'mirror.read', info, shows: shownBy(info) })),
  portAdd: (port: string, dir: Dir, component: string) =>
    change(
      `port add ${port} ${dir} ${component}`,
      'port add',
      {
        kind: 'port.attach',
        component,
        port,
        dir,
      },
      acknowledged,
    ),
}
