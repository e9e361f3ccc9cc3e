// GET /v1/processes and the primary's endpoints.
import { Hono } from 'hono'
import type { Registry } from '../actors/registry.ts'
import { primaryCommands as primary } from '../protocol/kinds/primary.ts'
import { json, noContent } from './json.ts'
import type { Processes } from './processes.ts'

/** GET /v1/processes never contacts a process; the primary's status, clear and exit do. */
export const primaryRoutes = (registry: Registry, processes: Processes) =>
  new Hono()
    .get('/processes', (c) => json(c, registry.list()))
    .get('/primary/status', async (c) =>
      json(c, await processes.ask(c, processes.primary(), primary.status())),
    )
    .delete('/primary/status', async (c) => {
      await processes.ask(c, processes.primary(), primary.clear())
      return noContent(c)
    })
    .delete('/primary', async (c) => {
      await processes.ask(c, processes.primary(), primary.exit())
      return noContent(c)
    })
