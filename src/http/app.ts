// The hono app: one middleware for id, log line and metrics, then every route, one error handler.
import { Hono, type Context } from 'hono'
import { methodNotAllowed } from 'hono/method-not-allowed'
import type { RequestIdVariables } from 'hono/request-id'
import { routePath } from 'hono/route'
import type { Logger } from 'pino'
import type { ChangeLedger } from '../actors/change-ledger.ts'
import type { Registry } from '../actors/registry.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { Metrics } from '../observe/metrics.ts'
import { CLIENT_ID_PATTERN } from '../protocol/tokens.ts'
import { LiveTopology } from '../topology/live-topology.ts'
import type { JournaledRequest } from '../store/store.ts'
import { authenticate, describePrincipal, type AuthenticateOptions } from './auth.ts'
import { notFound, onError, textBody } from './errors.ts'
import { bodilessHeads } from './json.ts'
import { openApiJson } from './openapi.ts'
import { presenters, type NfvStatusWords } from './present.ts'
import { processesOf } from './processes.ts'
import { recordChanges } from './record-changes.ts'
import { requestIds } from './request-id.ts'
import {
  mount,
  type Deps,
  type EventStreamOptions,
  type FleetLinkSource,
  type JournalSource,
} from './route.ts'
import { ROUTES } from './routes/all.ts'
import { assetRoutes, UI_PATHS } from './ui-routes.ts'
import { bodyLimits } from './validate.ts'

/** What the controller runs beside its listeners, made by src/controller/services.ts. */
export type AppServices = Pick<
  Deps,
  'memory' | 'restorer' | 'confirmations' | 'applier' | 'reads' | 'paths'
> & {
  ledger: ChangeLedger
  /** Told each journaled change once it is durable (the event stream's `journal.entry`). */
  onJournaled: (request: JournaledRequest) => void
}

export type AppOptions = {
  registry: Registry
  log: Logger
  maxBodyBytes: number
  hub: EventHub
  metrics: Metrics
  events: EventStreamOptions
  /** How nfv status is worded (default `spec`). */
  nfvStatus?: NfvStatusWords
  /** Where this host's cpus are described (GET /v1/cpu_layout). */
  sysfsCpu?: string
  /** Who may do what (--auth-file, --allow-read-anonymous); without clients, anyone may. */
  access?: Omit<AuthenticateOptions, 'publicPaths'>
  /** What the controller runs beside its listeners (src/controller/services.ts). */
  services: AppServices
  /** The change journal GET /v1/journal reads (the store); without it, that answers 404. */
  journal?: JournalSource
  /** With --etcd: the fleet link's state GET /v1/fleet/link tells; without it, that answers 404. */
  fleet?: FleetLinkSource
}

/** The REST API of ../shared/spec/rest-api.md. */
export function createApp(options: AppOptions) {
  const { registry, log, maxBodyBytes, hub, metrics, events, nfvStatus = 'spec' } = options
  // hono's default router, SmartRouter, tries RegExpRouter first, which refuses a static segment
  // beside a parameter at the same place: the REST spec's `/v1/primary/flow_rules/port_id/:port_id`
  // beside `/v1/primary/flow_rules/:rule_id/port_id/:port_id`. At the first request SmartRouter
  // catches that refusal and matches every route with TrieRouter from then on, which takes the
  // pair (test/http/router.test.ts).
  const app = new Hono<{ Variables: RequestIdVariables }>()
  // Outermost: a 204's or 304's head is written once every other middleware has seen the answer.
  app.use(bodilessHeads())
  app.use(requestIds())
  // Each request's line and metrics.
  app.use(async (c, next) => {
    const started = performance.now()
    await next()
    const { status } = c.res
    metrics.observeHttp(c.req.method, c.get('route') ?? routeOf(c), status)
    const told = c.get('told')
    const level = requestLevel(c.req.method, status, told !== undefined && told.length > 0)
    if (log.isLevelEnabled(level))
      log[level](
        {
          req: c.get('requestId'),
          method: c.req.method,
          path: c.req.path,
          status,
          ms: Math.round(performance.now() - started),
          // A request that asked a process has its cause, which names who already.
          who: c.get('cause')?.by ?? describePrincipal(c.get('principal')),
          ...(told?.length ? { commands: told } : {}),
        },
        'http request',
      )
  })
  // The page, the docs and the API's description carry no data: a browser loads them without a token.
  const publicPaths = [...UI_PATHS, '/openapi.json']
  app.use(authenticate({ ...options.access, publicPaths, onRefused: metrics.observeAuthRefused }))
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        c.text(textBody('Method not allowed.'), 405, { Allow: methods.join(',') }),
    }),
  )
  app.use(bodyLimits({ maxBytes: maxBodyBytes }))
  // Every change is remembered, and journaled, before its answer goes out.
  const { memory, ledger, onJournaled, applier, confirmations, restorer, reads, paths } =
    options.services
  app.use(recordChanges({ ledger, memory, onJournaled }))
  const deps = {
    registry,
    processes: processesOf(registry, reads),
    reads,
    topology: new LiveTopology(registry, reads),
    paths,
    memory,
    restorer,
    confirmations,
    hub,
    metrics,
    events,
    present: presenters(nfvStatus),
    applier,
    journal: options.journal,
    sysfsCpu: options.sysfsCpu ?? '/sys/devices/system/cpu',
    openApiJson: openApiJson(),
    fleet: options.fleet,
  }
  app.route('/', mount(ROUTES, deps))
  app.route('/', assetRoutes()) // the files the pages load (src/ui)
  app.notFound(notFound)
  app.onError(onError((err) => log.error({ err }, 'unexpected error while serving a request')))
  return app
}

const routeLabels = new Map<string, string>()
/** The route that answered a request no API route handled (the pages' files), or `unmatched`. */
function routeOf(c: Context): string {
  const path = routePath(c, -1)
  let label = routeLabels.get(path)
  if (label === undefined)
    routeLabels.set(
      path,
      (label = path.endsWith('*') ? 'unmatched' : path.replaceAll(`{${CLIENT_ID_PATTERN}}`, '')),
    )
  return label
}

/**
 * The level of a request's `http request` line. A read that succeeded is debug: dashboards,
 * scrapers and agents poll, and a line per poll would bury the changes and refusals an operator
 * reads the log for (its metrics still count it). A request that changed something is info, with
 * the commands it made, even if its client left; a refusal is info; a server error warn; a client
 * that left (499) is its own business: debug.
 */
export function requestLevel(method: string, status: number, changed: boolean) {
  if (status >= 500) return 'warn'
  if (changed) return 'info'
  if (status === 499 || ((method === 'GET' || method === 'HEAD') && status < 400)) return 'debug'
  return 'info'
}
