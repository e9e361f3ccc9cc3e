import { Hono } from 'hono'
import { ask } from '../actors/ask.ts'
import type { Registry } from '../actors/registry.ts'
import { primaryCommands } from '../protocol/primary.ts'

/** GET /v1/processes and the primary's endpoints. */
export const primaryRoutes = (registry: Registry) =>
  new Hono()
    .get('/processes', (c) => c.json(registry.list()))
    .get('/primary/status', async (c) => c.json(await ask(registry.primary().connection, primaryCommands.status())))
    .delete('/primary/status', async (c) => {
      await ask(registry.primary().connection, primaryCommands.clear())
      return c.body(null, 204)
    })
    .delete('/primary', async (c) => {
      await ask(registry.primary().connection, primaryCommands.exit())
      return c.body(null, 204)
    })
