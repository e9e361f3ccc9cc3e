// /v1/primary: status, clear, exit (every release); launch (18.08.2 on), ports (18.08.4 on),
// forwarder and patches (19.08 on). A route the primary's release lacks is refused (405) before
// its body is read.
import type { ProcessHandle } from '../../actors/process-handle.ts'
import { PrimaryStatus } from '../../protocol/bodies.ts'
import { primaryCommands as primary } from '../../protocol/kinds/primary.ts'
import type { Release } from '../../protocol/release.ts'
import { portNeeds } from '../../protocol/tokens.ts'
import { LaunchBody, launchTokens } from '../launch-body.ts'
import { json, noContent } from '../json.ts'
import type { Route } from '../route.ts'
import { ForwardBody, PrimaryPatchBody, PrimaryPortsBody } from '../schemas.ts'
import { readJson } from '../validate.ts'

const since = (release: Release) => ` (SPP ${release} and later; 405 for 18.11)`
const refused = { 405: "The primary's release does not have it; nothing was sent" }

/** 405 unless the primary takes the route; `added` is the release SPP's history adds it in. */
async function requireRoute(process: ProcessHandle, what: string, added: Release) {
  const caps = await process.caps('primaryRoutes')
  caps.require('primaryRoutes', what, added)
}

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
    body: PrimaryPortsBody,
    example: { action: 'add', port: 'ring:0' },
    success: 204,
    command: true,
    errors: refused,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'primary')
      await requireRoute(process, 'PUT /v1/primary/ports', '18.08.4')
      const { action, port, rx, tx } = await readJson(c, PrimaryPortsBody)
      const need = portNeeds('primaryPort', port)
      if (need)
        (await process.caps(need)).require(need, `${port.slice(0, port.indexOf(':'))} ports`)
      // Read first: what it lists now decides whether an add would corrupt it (state/hazards.ts).
      if (action === 'add') await process.ask(primary.status())
      const rings = rx && tx ? { rx, tx } : undefined
      await process.ask(action === 'del' ? primary.delPort(port) : primary.addPort(port, rings))
      return noContent(c)
    },
  },
  {
    method: 'put',
    path: '/v1/primary/forward',
    summary: `Start or stop the primary's forwarder${since('19.08')}`,
    body: ForwardBody,
    example: { action: 'start' },
    success: 204,
    command: true,
    errors: refused,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'primary')
      await requireRoute(process, 'PUT /v1/primary/forward', '19.08')
      const { action } = await readJson(c, ForwardBody)
      await process.ask(action === 'start' ? primary.forward() : primary.stop())
      return noContent(c)
    },
  },
  {
    method: 'put',
    path: '/v1/primary/patches',
    summary: `Patch two ports in the primary${since('19.08')}`,
    body: PrimaryPatchBody,
    example: { src: 'phy:0', dst: 'ring:0' },
    success: 204,
    command: true,
    errors: refused,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'primary')
      await requireRoute(process, 'PUT /v1/primary/patches', '19.08')
      const { src, dst } = await readJson(c, PrimaryPatchBody)
      await process.ask(primary.patch(src, dst))
      return noContent(c)
    },
  },
  {
    method: 'delete',
    path: '/v1/primary/patches',
    summary: `Reset the primary's patches${since('19.08')}`,
    success: 204,
    command: true,
    errors: refused,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'primary')
      await requireRoute(process, 'DELETE /v1/primary/patches', '19.08')
      await process.ask(primary.patchReset())
      return noContent(c)
    },
  },
  {
    method: 'put',
    path: '/v1/primary/launch',
    summary: `Launch a secondary process${since('18.08.2')}`,
    body: LaunchBody,
    example: {
      client_id: 1,
      proc_name: 'spp_nfv',
      eal: { '-l': '1,2', '--proc-type': 'secondary' },
      app: { '-n': 1, '-s': '127.0.0.1:6666' },
    },
    success: 204,
    command: true,
    errors: refused,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'primary')
      await requireRoute(process, 'PUT /v1/primary/launch', '18.08.2')
      const body = await readJson(c, LaunchBody)
      await process.ask(primary.launch(launchTokens(body)))
      return noContent(c)
    },
  },
]
