// Every route of the API, module by module: what the app serves and what OpenAPI shows.
import type { Route } from '../route.ts'
import { eventRoutes } from './events.ts'
import { fleetRoutes } from './fleet.ts'
import { historyRoutes } from './history.ts'
import { hostRoutes } from './host.ts'
import { journalRoutes } from './journal.ts'
import { mirrorRoutes } from './mirror.ts'
import { nfvRoutes } from './nfv.ts'
import { pageRoutes } from './pages.ts'
import { pathRoutes } from './paths.ts'
import { pcapRoutes } from './pcap.ts'
import { flowRoutes } from './primary-flow.ts'
import { primaryRoutes } from './primary.ts'
import { rememberRoutes } from './remember.ts'
import { topologyRoutes } from './topology.ts'
import { vfRoutes } from './vf.ts'

/** Add a route to its kind's module; it is served and documented from there. */
export const ROUTES: Route[] = [
  ...hostRoutes,
  ...primaryRoutes,
  ...flowRoutes,
  ...nfvRoutes,
  ...vfRoutes,
  ...mirrorRoutes,
  ...pcapRoutes,
  ...topologyRoutes,
  ...pathRoutes,
  ...rememberRoutes,
  ...historyRoutes,
  ...eventRoutes,
  ...journalRoutes,
  ...fleetRoutes,
  ...pageRoutes,
]
