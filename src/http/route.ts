// A route as data: its OpenAPI row and its handler side by side; a table of them becomes hono routes.
import { Hono, type Context } from 'hono'
import type { GenericSchema } from 'valibot'
import type { Registry } from '../actors/registry.ts'
import type { FleetLinkDocument } from '../fleet/link-status.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { Metrics } from '../observe/metrics.ts'
import type { StatusReads } from '../observe/status-reads.ts'
import { CLIENT_ID_PATTERN } from '../protocol/tokens.ts'
import type { Store } from '../store/store.ts'
import type { Applier } from '../topology/apply.ts'
import type { LiveTopology } from '../topology/live-topology.ts'
import type { PathWatch } from '../topology/path-watch.ts'
import type { Memory } from '../remember/memory.ts'
import type { Confirmations } from '../remember/confirmation.ts'
import type { Restorer } from '../remember/restore.ts'
import type { Presenters } from './present.ts'
import type { Processes } from './processes.ts'

type Method = 'get' | 'put' | 'post' | 'delete'
/** What a success carries: a JSON schema for GET bodies, or another media type. */
type Success = GenericSchema | 'text/event-stream' | 'text/plain' | 'text/html' | 'openapi' | 204

/** One method on one path (OpenAPI path syntax), as the OpenAPI document shows it. */
export type Operation = {
  method: Method
  path: string
  summary: string
  body?: GenericSchema
  /** The query parameters: an object schema, each entry one optional parameter. */
  query?: GenericSchema
  /** A body that works against `npm run demo`: what "try it out" starts from. */
  example?: object
  success: Success
  /** The request is a command to a process: it may be rejected (400) or fail (500). */
  command?: boolean
  /** Other answers it may give, by status. */
  errors?: Record<number, string>
}

/** An event-stream client this many events behind is dropped; a keep-alive comment this often. */
export type EventStreamOptions = { maxPendingPerClient: number; heartbeatMs: number }

/** What the handlers are given: the processes, the event hub, the applier, ... */
export type Deps = {
  registry: Registry
  processes: Processes
  hub: EventHub
  metrics: Metrics
  events: EventStreamOptions
  present: Presenters
  /** Plans and applies topologies, one apply at a time. */
  applier: Applier
  /** Status reads shared by every reader within --status-max-age, and the document built from them. */
  reads: StatusReads
  topology: LiveTopology
  /** The paths packets take and their verdicts, from the primary's reads and each process's view. */
  paths: PathWatch
  /** What the controller remembers, and its restores (absent with --state-dir none). */
  memory?: Memory
  restorer?: Restorer
  /** The apply waiting for its confirmation (`confirm_within`), one at a time. */
  confirmations: Confirmations
  /** The change journal (GET /v1/journal), absent when the controller keeps no state. */
  journal?: JournalSource
  /** Where the cpus are described (/sys/devices/system/cpu). */
  sysfsCpu: string
  /** GET /openapi.json, serialised once. */
  openApiJson: () => string
  /** With --etcd: whether the link to the fleet works (GET /v1/fleet/link). */
  fleet?: FleetLinkSource
}

/** Where the fleet link's state is read: the link's status, or anything that tells it. */
export type FleetLinkSource = { current(): FleetLinkDocument }

/** Where the journal is read: the store, or anything that answers its queries. */
export type JournalSource = Pick<Store, 'journalQuery'>

/** An operation and the handler that serves it. */
export type Route = Operation & {
  handle: (c: Context, deps: Deps) => Response | Promise<Response>
}

/** The OpenAPI rows of a table of routes. */
export const rows = (routes: Route[]): Operation[] => routes.map(({ handle: _, ...row }) => row)

/** `/v1/nfvs/{client_id}/ports` as hono routes it: a client id in its one canonical spelling. */
export const honoPath = (path: string) =>
  path.replace('{client_id}', `:client_id{${CLIENT_ID_PATTERN}}`).replace(/\{(\w+)\}/g, ':$1')

declare module 'hono' {
  interface ContextVariableMap {
    /** The route that answers, as a metrics label (`/v1/nfvs/:client_id`), set by its handler. */
    route?: string
  }
}

/** `/v1/nfvs/{client_id}` as a metrics label: `/v1/nfvs/:client_id`. */
export const routeLabel = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

/** Serves a table of routes with their dependencies. */
export function mount(routes: Route[], deps: Deps): Hono {
  const app = new Hono()
  for (const route of routes) {
    const label = routeLabel(route.path)
    app.on(route.method.toUpperCase(), honoPath(route.path), (c) => {
      c.set('route', label) // cheaper than asking hono which route matched
      return route.handle(c, deps)
    })
  }
  return app
}
