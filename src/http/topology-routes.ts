// /v1/topology: the state of every connected process in one document; plan and apply a desired one.
import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import type { Registry } from '../actors/registry.ts'
import type { EventHub } from '../observe/event-hub.ts'
import { createApplier, type Answer, type Dispatch } from '../topology/apply.ts'
import { parseDesired } from '../topology/document.ts'
import { topologyEtag } from '../topology/etag.ts'
import { readTopology, type TopologyDocument } from '../topology/read-topology.ts'
import { readJson } from './validate.ts'

const desiredOf = async (c: Context) => parseDesired(await readJson(c, v.looseObject({})))

const answer = (c: Context, a: Answer) => {
  if ('text' in a) return c.text(a.text, a.status)
  if (a.etag !== undefined) c.header('ETag', a.etag)
  return c.json(a.json, a.status)
}

/**
 * GET /v1/topology (always 200, with an ETag of the configuration; a process that could not be
 * read appears as `{"error": ...}`), POST /v1/topology/plan and /apply (a desired document).
 */
export const topologyRoutes = (
  registry: Registry,
  hub: EventHub,
  dispatch: Dispatch,
  present: (document: TopologyDocument) => object,
) => {
  const applier = createApplier({ registry, hub, dispatch })
  return new Hono()
    .get('/topology', async (c) => {
      const document = await readTopology(registry, { requestId: c.get('requestId') })
      c.header('ETag', topologyEtag(document))
      return c.json(present(document))
    })
    .post('/topology/plan', async (c) =>
      answer(c, await applier.plan(await desiredOf(c), c.get('requestId'))),
    )
    .post('/topology/apply', async (c) =>
      answer(
        c,
        await applier.apply(await desiredOf(c), c.get('requestId'), c.req.header('If-Match')),
      ),
    )
}
