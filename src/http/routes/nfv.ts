// /v1/nfvs/{client_id}: status, forwarding, ports, patches, exit; with their OpenAPI rows.
import { NfvInfo } from '../../protocol/bodies.ts'
import { nfvCommands as nfv } from '../../protocol/kinds/nfv.ts'
import { CHANGES } from '../../requests/changes.ts'
import { json, noContent } from '../json.ts'
import type { Route } from '../route.ts'

const path = '/v1/nfvs/{client_id}'
const { forward, ports, patch, reset } = CHANGES.nfv

/** The nfv endpoints; GET words the status as the controller is configured to. */
export const nfvRoutes: Route[] = [
  {
    method: 'get',
    path,
    summary: "An nfv's status, ports and patches",
    success: NfvInfo,
    command: true,
    handle: async (c, { processes, present }) =>
      json(c, present.nfv(await processes.status(c, 'nfv'))),
  },
  {
    method: 'put',
    path: `${path}/forward`,
    summary: 'Start or stop forwarding',
    body: forward.body!(),
    example: { action: 'start' },
    success: 204,
    command: true,
    handle: (c, { processes }) => processes.change(c, 'nfv', forward),
  },
  {
    method: 'put',
    path: `${path}/ports`,
    summary: 'Add or delete a port (memif: SPP 19.11 nfvs)',
    body: ports.body!(),
    example: { action: 'add', port: 'ring:0' },
    success: 204,
    command: true,
    handle: (c, { processes }) => processes.change(c, 'nfv', ports),
  },
  {
    method: 'put',
    path: `${path}/patches`,
    summary: 'Patch two ports (queues of phy ports: SPP 19.11 nfvs)',
    body: patch.body!(),
    example: { src: 'phy:0', dst: 'ring:0' },
    success: 204,
    command: true,
    handle: (c, { processes }) => processes.change(c, 'nfv', patch),
  },
  {
    method: 'delete',
    path: `${path}/patches`,
    summary: 'Reset all patches',
    success: 204,
    command: true,
    handle: (c, { processes }) => processes.change(c, 'nfv', reset),
  },
  {
    method: 'delete',
    path,
    summary: 'Terminate the nfv',
    success: 204,
    command: true,
    handle: async (c, { processes }) => {
      await processes.find(c, 'nfv').ask(nfv.exit())
      return noContent(c)
    },
  },
]
