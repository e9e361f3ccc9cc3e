import { Hono, type Context } from 'hono'
import type { Registry } from '../actors/registry.ts'
import { primaryCommands } from '../protocol/primary.ts'
import { json } from './json.ts'
import { sender } from './sender.ts'

/** GET /v1/processes and the primary's endpoints. */
export const primaryRoutes = (registry: Registry) => {
  const primaryOf = (c: Context) => sender(c, registry.primary().connection)
  return new Hono()
    .get('/processes', (c) => json(c, registry.list()))
    .get('/primary/status', async (c) => json(c, await primaryOf(c)(primaryCommands.status())))
    .delete('/primary/status', async (c) => {
      await primaryOf(c)(primaryCommands.clear())
      return c.body(null, 204)
    })
    .delete('/primary', async (c) => {
      await primaryOf(c)(primaryCommands.exit())
      return c.body(null, 204)
    })
}
