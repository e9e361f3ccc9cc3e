// /v1/pcaps/{client_id} (spp_pcap, 18.08.2 and later): status, capture start/stop, exit.
import { PcapInfo } from '../../protocol/bodies.ts'
import { pcapCommands as pcap } from '../../protocol/kinds/pcap.ts'
import { json, noContent } from '../json.ts'
import type { Route } from '../route.ts'
import { CaptureBody } from '../../requests/schemas.ts'
import { readJson } from '../validate.ts'

const path = '/v1/pcaps/{client_id}'

/** The pcap endpoints, as SPP's 2020 controller serves them (GET answers the status `info`). */
export const pcapRoutes: Route[] = [
  {
    method: 'get',
    path,
    summary: "A pcap's capture status",
    success: PcapInfo,
    command: true,
    handle: async (c, { processes }) => json(c, await processes.status(c, 'pcap')),
  },
  {
    method: 'put',
    path: `${path}/capture`,
    summary: 'Start or stop capturing',
    body: CaptureBody,
    example: { action: 'start' },
    success: 204,
    command: true,
    handle: async (c, { processes }) => {
      const process = processes.find(c, 'pcap')
      const { action } = await readJson(c, CaptureBody)
      await process.ask(action === 'start' ? pcap.start() : pcap.stop())
      return noContent(c)
    },
  },
  {
    method: 'delete',
    path,
    summary: 'Terminate the pcap',
    success: 204,
    command: true,
    handle: async (c, { processes }) => {
      await processes.find(c, 'pcap').ask(pcap.exit())
      return noContent(c)
    },
  },
]
