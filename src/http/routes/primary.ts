// /v1/primary: status, clear, exit (every release); ports, forwarder, patches, launch (18.08.2 on).
import { PrimaryStatus } from '../../protocol/bodies.ts'
import { primaryCommands as primary } from '../../protocol/kinds/primary.ts'
import { portNeeds } from '../../protocol/tokens.ts'
import { LaunchBody, launchTokens } from '../launch-body.ts'
import { json, noContent } from '../json.ts'
import type { Route } from '../route.ts'
import { ForwardBody, PrimaryPatchBody, PrimaryPortsBody } from '../schemas.ts'
import { readJson } from '../validate.ts'

const since = ' (SPP 18.08.2 and later; 405 for 18.11)'
const refused = { 405: "The primary's release does not have it; nothing was sent" }

/** The primary's endpoints; those of later releases answer 405 to an older primary. */
export const primaryRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/primary/status',
    summary: "The primary's port counters",
    success: PrimaryStatus,
    command: true,
    handle: async (c, { processes }) =>
      json(c, await processes.find(c, 'primary').ask(primary.status())),
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
    summary: `Add or delete a primary port${since}; pipe and memif ports from 19.11`,
    body: PrimaryPortsBody,
    example: { action: 'add', port: 'ring:0' },
    success: 204,
    command: true,
    errors: refused,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'primary')
      const { action, port, rx, tx } = await readJson(c, PrimaryPortsBody)
      const need = portNeeds('primaryPort', port)
      const caps = await process.caps(need ?? 'primaryRoutes')
      caps.require('primaryRoutes', 'PUT /v1/primary/ports')
      if (need) caps.require(need, `${port.slice(0, port.indexOf(':'))} ports`)
      const rings = rx && tx ? { rx, tx } : undefined
      await process.ask(action === 'del' ? primary.delPort(port) : primary.addPort(port, rings))
      return noContent(c)
    },
  },
  {
    method: 'put',
    path: '/v1/primary/forward',
    summary: `Start or stop the primary's forwarder${since}`,
    body: ForwardBody,
    example: { action: 'start' },
    success: 204,
    command: true,
    errors: refused,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'primary')
      const { action } = await readJson(c, ForwardBody)
      ;(await process.caps('primaryRoutes')).require('primaryRoutes', 'PUT /v1/primary/forward')
      await process.ask(action === 'start' ? primary.forward() : primary.stop())
      return noContent(c)
    },
  },
  {
    method: 'put',
    path: '/v1/primary/patches',
    summary: `Patch two ports in the primary${since}`,
    body: PrimaryPatchBody,
    example: { src: 'phy:0', dst: 'ring:0' },
    success: 204,
    command: true,
    errors: refused,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'primary')
      const { src, dst } = await readJson(c, PrimaryPatchBody)
      ;(await process.caps('primaryRoutes')).require('primaryRoutes', 'PUT /v1/primary/patches')
      await process.ask(primary.patch(src, dst))
      return noContent(c)
    },
  },
  {
    method: 'delete',
    path: '/v1/primary/patches',
    summary: `Reset the primary's patches${since}`,
    success: 204,
    command: true,
    errors: refused,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'primary')
      ;(await process.caps('primaryRoutes')).require('primaryRoutes', 'DELETE /v1/primary/patches')
      await process.ask(primary.patchReset())
      return noContent(c)
    },
  },
  {
    method: 'put',
    path: '/v1/primary/launch',
    summary: `Launch a secondary process${since}`,
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
      const body = await readJson(c, LaunchBody)
      ;(await process.caps('primaryRoutes')).require('primaryRoutes', 'PUT /v1/primary/launch')
      await process.ask(primary.launch(launchTokens(body)))
      return noContent(c)
    },
  },
]
