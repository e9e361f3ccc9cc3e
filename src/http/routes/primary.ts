// /v1/primary: status, clear, exit (every release); launch (18.08.2 on), ports (18.08.4 on),
// forwarder and patches (19.08 on). A route the primary's release lacks is refused (405) before
// its body is read.
import { PrimaryStatus } from '../../protocol/bodies.ts'
import { primaryCommands as primary } from '../../protocol/kinds/primary.ts'
import type { Release } from '../../protocol/release.ts'
import { CHANGES } from '../../requests/changes.ts'
import { json, noContent } from '../json.ts'
import type { Route } from '../route.ts'

const since = (release: Release) => ` (SPP ${release} and later; 405 for 18.11)`
const refused = { 405: "The primary's release does not have it; nothing was sent" }
const { forward, ports, patch, reset, launch } = CHANGES.primary

/** The primary's endpoints; those of later releases answer 405 to an older primary. */
export const primaryRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/primary/status',
    summary: "The primary's port counters",
    success: PrimaryStatus,
    command: true,
    handle: async (c, { processes }) => json(c, await processes.status(c, 'primary')),
  },
  {
    method: 'delete',
    path: '/v1/primary/status',
    summary: "Clear the primary's counters",
    success: 204,
    command: true,
    handle: async (c, { processes }) => {
      await processes.find(c, 'primary').ask(primary.clear())
      return noContent(c)
    },
  },
  {
    method: 'delete',
    path: '/v1/primary',
    summary: 'Terminate the primary',
    success: 204,
    command: true,
    handle: async (c, { processes }) => {
      await processes.find(c, 'primary').ask(primary.exit())
      return noContent(c)
    },
  },
  {
    method: 'put',
    path: '/v1/primary/ports',
    summary: `Add or delete a primary port${since('18.08.4')}; pipe and memif ports from 19.11`,
    body: ports.body!(),
    example: { action: 'add', port: 'ring:0' },
    success: 204,
    command: true,
    errors: refused,
    handle: (c, { processes }) => processes.change(c, 'primary', ports),
  },
  {
    method: 'put',
    path: '/v1/primary/forward',
    summary: `Start or stop the primary's forwarder${since('19.08')}`,
    body: forward.body!(),
    example: { action: 'start' },
    success: 204,
    command: true,
    errors: refused,
    handle: (c, { processes }) => processes.change(c, 'primary', forward),
  },
  {
    method: 'put',
    path: '/v1/primary/patches',
    summary: `Patch two ports in the primary${since('19.08')}`,
    body: patch.body!(),
    example: { src: 'phy:0', dst: 'ring:0' },
    success: 204,
    command: true,
    errors: refused,
    handle: (c, { processes }) => processes.change(c, 'primary', patch),
  },
  {
    method: 'delete',
    path: '/v1/primary/patches',
    summary: `Reset the primary's patches${since('19.08')}`,
    success: 204,
    command: true,
    errors: refused,
    handle: (c, { processes }) => processes.change(c, 'primary', reset),
  },
  {
    method: 'put',
    path: '/v1/primary/launch',
    summary: `Launch a secondary process${since('18.08.2')}`,
    body: launch.body!(),
    example: {
      client_id: 1,
      proc_name: 'spp_nfv',
      eal: { '-l': '1,2', '--proc-type': 'secondary' },
      app: { '-n': 1, '-s': '127.0.0.1:6666' },
    },
    success: 204,
    command: true,
    errors: refused,
    handle: (c, { processes }) => processes.change(c, 'primary', launch),
  },
]
