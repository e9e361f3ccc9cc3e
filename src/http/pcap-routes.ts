// /v1/pcaps/{client_id} (2019+ spp_pcap): status, capture start/stop, exit; and exit of a 2020 vf or mirror.
import { Hono } from 'hono'
import type { Registry } from '../actors/registry.ts'
import { pcapCommands as pcap } from '../protocol/kinds/pcap.ts'
import { exitCommand } from '../protocol/kinds/secondary-exit.ts'
import { requireEra } from './era-guard.ts'
import { json, noContent } from './json.ts'
import type { Processes } from './processes.ts'
import { CLIENT_ID_SEGMENT as ID } from './schemas.ts'
import { CaptureBody } from './schemas-2020.ts'
import { readJson } from './validate.ts'

/** The pcap endpoints, as SPP's 2020 controller serves them (GET answers the status `info`). */
export const pcapRoutes = (processes: Processes) =>
  new Hono()
    .get(ID, async (c) =>
      json(c, await processes.ask(c, processes.secondary(c, 'pcap'), pcap.status())),
    )
    .put(`${ID}/capture`, async (c) => {
      const target = processes.secondary(c, 'pcap')
      const { action } = await readJson(c, CaptureBody)
      await processes.ask(c, target, action === 'start' ? pcap.start() : pcap.stop())
      return noContent(c)
    })
    .delete(ID, async (c) => {
      await processes.ask(c, processes.secondary(c, 'pcap'), pcap.exit())
      return noContent(c)
    })

/**
 * DELETE /v1/vfs/{id} and /v1/mirrors/{id}: only a 2020-era vf or mirror answers `exit` (an 18.11
 * one exits without a word, which cannot be told from a hang), so an 18.11 one is refused with 405.
 */
export const secondaryExitRoutes = (
  registry: Registry,
  processes: Processes,
  kind: 'vf' | 'mirror',
) =>
  new Hono().delete(ID, async (c) => {
    const target = processes.secondary(c, kind)
    await requireEra(c, registry, processes, target, '2020', `DELETE /v1/${kind}s/{client_id}`)
    await processes.ask(c, target, exitCommand())
    return noContent(c)
  })
