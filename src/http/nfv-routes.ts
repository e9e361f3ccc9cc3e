import { Hono } from 'hono'
import type { Registry } from '../actors/registry.ts'
import { nfvCommands as nfv } from '../protocol/nfv.ts'
import { CLIENT_ID_SEGMENT, ForwardBody, NfvPortsBody, PatchBody } from './schemas.ts'
import { json } from './json.ts'
import { secondarySender } from './sender.ts'
import { readJson } from './validate.ts'

const ID = CLIENT_ID_SEGMENT

/** /v1/nfvs/{client_id}: status, forwarding, ports, patches, exit. */
export const nfvRoutes = (registry: Registry) => {
  const nfvOf = secondarySender(registry, 'nfv')
  return new Hono()
    .get(ID, async (c) => json(c, await nfvOf(c)(nfv.status())))
    .put(`${ID}/forward`, async (c) => {
      const send = nfvOf(c)
      const { action } = await readJson(c, ForwardBody)
      await send(action === 'start' ? nfv.forward() : nfv.stop())
      return c.body(null, 204)
    })
    .put(`${ID}/ports`, async (c) => {
      const send = nfvOf(c)
      const { action, port } = await readJson(c, NfvPortsBody)
      await send(action === 'add' ? nfv.addPort(port) : nfv.delPort(port))
      return c.body(null, 204)
    })
    .put(`${ID}/patches`, async (c) => {
      const send = nfvOf(c)
      const { src, dst } = await readJson(c, PatchBody)
      await send(nfv.patch(src, dst))
      return c.body(null, 204)
    })
    .delete(`${ID}/patches`, async (c) => {
      await nfvOf(c)(nfv.patchReset())
      return c.body(null, 204)
    })
    .delete(ID, async (c) => {
      await nfvOf(c)(nfv.exit())
      return c.body(null, 204)
    })
}
