// GET /v1/topology/paths: where packets go through the chain, hop by hop, and where they are lost.
import { PathsDocument } from '../../topology/path-document.ts'
import { json } from '../json.ts'
import { tellAge } from '../processes.ts'
import { causeOf } from '../record-changes.ts'
import type { Route } from '../route.ts'

/** GET /v1/topology/paths */
export const pathRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/topology/paths',
    summary:
      "Every path packets take: from each port where they enter, hop by hop (each hop's mover, state, rates with the counter each comes from, and verdict) to where they leave or end; the primary's counters are read (shared within --status-max-age; X-Status-Age-Ms: the read's age), every other process as the controller knows it",
    success: PathsDocument,
    handle: async (c, { paths, reads }) => {
      const { document, readAt } = await paths.fresh(causeOf(c))
      if (readAt !== undefined) tellAge(c, reads, readAt)
      return json(c, document)
    },
  },
]
