// GET /v1/fleet/link: whether this controller's link to the fleet's etcd works (--etcd).
import { FleetLinkDocument } from '../../fleet/link-status.ts'
import { ControllerError } from '../../protocol/errors.ts'
import { json } from '../json.ts'
import type { Route } from '../route.ts'

/** GET /v1/fleet/link */
export const fleetRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/fleet/link',
    summary:
      "Whether this controller's link to the fleet's etcd works (--etcd), since when, and what etcd refused or why it does not answer; each change is a `fleet.link` event",
    success: FleetLinkDocument,
    errors: { 404: 'The controller is in no fleet (started without --etcd)' },
    handle: (c, { fleet }) => {
      if (!fleet)
        throw new ControllerError(
          'NOT_IN_FLEET',
          'this controller is in no fleet: it was started without --etcd',
        )
      return json(c, fleet.current())
    },
  },
]
