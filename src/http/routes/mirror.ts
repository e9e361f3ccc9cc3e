// /v1/mirrors/{client_id}: status, components and their ports, exit; with their OpenAPI rows.
import { MirrorInfo } from '../../protocol/bodies.ts'
import { mirrorCommands } from '../../protocol/kinds/mirror.ts'
import type { Route } from '../route.ts'
import { componentRoutes } from './components.ts'

/** The mirror endpoints: the vf's without the classifier table, and no vlan on a port. */
export const mirrorRoutes: Route[] = componentRoutes('mirror', mirrorCommands, {
  info: MirrorInfo,
  examples: {
    component: { name: 'mr1', core: 2, type: 'mirror' },
    ports: { action: 'attach', port: 'ring:1', dir: 'rx' },
  },
})
