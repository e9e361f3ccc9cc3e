// /v1/nfvs/{client_id}: status, forwarding, ports, patches, exit.
import { Hono, type Context } from 'hono'
import { nfvCommands as nfv, type NfvInfo } from '../protocol/kinds/nfv.ts'
import { json, noContent } from './json.ts'
import type { Processes, Target } from './processes.ts'
import { Nfv1911PatchBody, Nfv1911PortsBody } from './schemas-2020.ts'
import { CLIENT_ID_SEGMENT as ID, ForwardBody, NfvPortsBody, PatchBody } from './schemas.ts'
import { readJson } from './validate.ts'

/** The nfv endpoints; `present` words the status as the controller is configured to. */
export const nfvRoutes = (processes: Processes, present: (info: NfvInfo) => object) => {
  // memif ports and queue ids (phy:0nq1) exist from 19.11 on, whose replies are 32768 bytes.
  const is1911 = (c: Context, target: Target) => processes.isRelease1911(c, target)
  return new Hono()
    .get(ID, async (c) => {
      const target = processes.secondary(c, 'nfv')
      return json(c, present(await processes.ask(c, target, nfv.status())))
    })
    .put(`${ID}/forward`, async (c) => {
      const target = processes.secondary(c, 'nfv')
      const { action } = await readJson(c, ForwardBody)
      await processes.ask(c, target, action === 'start' ? nfv.forward() : nfv.stop())
      return noContent(c)
    })
    .put(`${ID}/ports`, async (c) => {
      const target = processes.secondary(c, 'nfv')
      const { action, port } = await readJson(
        c,
        (await is1911(c, target)) ? Nfv1911PortsBody : NfvPortsBody,
      )
      await processes.ask(c, target, action === 'add' ? nfv.addPort(port) : nfv.delPort(port))
      return noContent(c)
    })
    .put(`${ID}/patches`, async (c) => {
      const target = processes.secondary(c, 'nfv')
      const { src, dst } = await readJson(
        c,
        (await is1911(c, target)) ? Nfv1911PatchBody : PatchBody,
      )
      await processes.ask(c, target, nfv.patch(src, dst))
      return noContent(c)
    })
    .delete(`${ID}/patches`, async (c) => {
      await processes.ask(c, processes.secondary(c, 'nfv'), nfv.patchReset())
      return noContent(c)
    })
    .delete(ID, async (c) => {
      await processes.ask(c, processes.secondary(c, 'nfv'), nfv.exit())
      return noContent(c)
    })
}
