import { Hono, type Context } from 'hono'
import { ask } from '../actors/ask.ts'
import type { Registry } from '../actors/registry.ts'
import { nfvCommands as nfv } from '../protocol/nfv.ts'
import { CLIENT_ID_PATTERN, ForwardBody, NfvPortsBody, PatchBody } from './schemas.ts'
import { readJson } from './validate.ts'

const ID = `/:client_id{${CLIENT_ID_PATTERN}}`

/** /v1/nfvs/{client_id}: status, forwarding, ports, patches, exit. */
export const nfvRoutes = (registry: Registry) => {
  const process = (c: Context) => registry.secondary('nfv', Number(c.req.param('client_id'))).connection
  return new Hono()
    .get(ID, async (c) => c.json(await ask(process(c), nfv.status())))
    .put(`${ID}/forward`, async (c) => {
      const target = process(c)
      const { action } = await readJson(c, ForwardBody)
      await ask(target, action === 'start' ? nfv.forward() : nfv.stop())
      return c.body(null, 204)
    })
    .put(`${ID}/ports`, async (c) => {
      const target = process(c)
      const { action, port } = await readJson(c, NfvPortsBody)
      await ask(target, action === 'add' ? nfv.addPort(port) : nfv.delPort(port))
      return c.body(null, 204)
    })
    .put(`${ID}/patches`, async (c) => {
      const target = process(c)
      const { src, dst } = await readJson(c, PatchBody)
      await ask(target, nfv.patch(src, dst))
      return c.body(null, 204)
    })
    .delete(`${ID}/patches`, async (c) => {
      await ask(process(c), nfv.patchReset())
      return c.body(null, 204)
    })
    .delete(ID, async (c) => {
      await ask(process(c), nfv.exit())
      return c.body(null, 204)
    })
}
