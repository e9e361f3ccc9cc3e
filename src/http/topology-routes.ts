// GET /v1/topology: the state of every connected process in one document.
import { Hono } from 'hono'
import type { Registry } from '../actors/registry.ts'
import { readTopology, type TopologyDocument } from '../topology/read-topology.ts'

/** /v1/topology: always 200; a process that could not be read appears as `{"error": ...}`. */
export const topologyRoutes = (
  registry: Registry,
  present: (document: TopologyDocument) => object,
) =>
  new Hono().get('/topology', async (c) =>
    c.json(present(await readTopology(registry, { requestId: c.get('requestId') }))),
  )
