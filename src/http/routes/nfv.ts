// /v1/nfvs/{client_id}: status, forwarding, ports, patches, exit; with their OpenAPI rows.
import { NfvInfo } from '../../protocol/bodies.ts'
import { nfvCommands as nfv } from '../../protocol/kinds/nfv.ts'
import { refuseMissingRing } from '../host-rings.ts'
import { json, noContent } from '../json.ts'
import { readFor } from '../processes.ts'
import type { Route } from '../route.ts'
import { ForwardBody, nfvPatchBody, nfvPortsBody } from '../schemas.ts'
import { readJson } from '../validate.ts'

const path = '/v1/nfvs/{client_id}'

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
    body: ForwardBody,
    example: { action: 'start' },
    success: 204,
    command: true,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'nfv')
      const { action } = await readJson(c, ForwardBody)
      await process.ask(action === 'start' ? nfv.forward() : nfv.stop())
      return noContent(c)
    },
  },
  {
    method: 'put',
    path: `${path}/ports`,
    summary: 'Add or delete a port (memif: SPP 19.11 nfvs)',
    body: nfvPortsBody(),
    example: { action: 'add', port: 'ring:0' },
    success: 204,
    command: true,
    handle: async (c, { processes, registry }) => {
      const process = processes.find(c, 'nfv')
      const { action, port } = await readFor(c, process, nfvPortsBody, (b) => [['nfvPort', b.port]])
      if (action === 'add')
        await refuseMissingRing(c, registry, port, 'the nfv would fail to add it')
      await process.ask(action === 'add' ? nfv.addPort(port) : nfv.delPort(port))
      return noContent(c)
    },
  },
  {
    method: 'put',
    path: `${path}/patches`,
    summary: 'Patch two ports (queues of phy ports: SPP 19.11 nfvs)',
    body: nfvPatchBody(),
    example: { src: 'phy:0', dst: 'ring:0' },
    success: 204,
    command: true,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'nfv')
      const { src, dst } = await readFor(c, process, nfvPatchBody, (b) => [
        ['nfvPatch', b.src],
        ['nfvPatch', b.dst],
      ])
      await process.ask(nfv.patch(src, dst))
      return noContent(c)
    },
  },
  {
    method: 'delete',
    path: `${path}/patches`,
    summary: 'Reset all patches',
    success: 204,
    command: true,
    handle: async (c, { processes }) => {
      await processes.find(c, 'nfv').ask(nfv.patchReset())
      return noContent(c)
    },
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
