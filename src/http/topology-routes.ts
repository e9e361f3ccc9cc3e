// GET /v1/topology: the state of every connected process in one document.
import { Hono } from 'hono'
import type { Registry } from '../actors/registry.ts'
import { readTopology } from '../topology/read-topology.ts'

/** /v1/topology: always 200; a process that could not be read appears as `{"error": ...}`. */
export const topologyRoutes = (registry: Registry) =>
  new Hono().get('/topology', async (c) => c.json(await readTopology(registry, c.get('requestId'))))
