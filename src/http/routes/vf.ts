// /v1/vfs/{client_id}: status, components, ports with vlan, the classifier table, exit.
import { VfInfo } from '../../protocol/bodies.ts'
import { vfCommands } from '../../protocol/kinds/vf.ts'
import { CHANGES } from '../../requests/changes.ts'
import type { Route } from '../route.ts'
import { componentRoutes } from './components.ts'

const { classifier } = CHANGES.vf

/** The vf endpoints: those it shares with the mirror, and its classifier table. */
export const vfRoutes: Route[] = [
  ...componentRoutes('vf', vfCommands, {
    info: VfInfo,
    examples: {
      component: { name: 'fwd1', core: 2, type: 'forward' },
      ports: {
        action: 'attach',
        port: 'ring:0',
        dir: 'rx',
        vlan: { operation: 'add', id: 100, pcp: 3 },
      },
    },
  }),
  {
    method: 'put',
    path: '/v1/vfs/{client_id}/classifier_table',
    summary: 'Add or delete a classifier entry',
    body: classifier.body!(),
    example: { action: 'add', type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
    success: 204,
    command: true,
    handle: (c, { processes }) => processes.change(c, 'vf', classifier),
  },
]
