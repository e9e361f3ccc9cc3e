// The hono app: one middleware for id, log line and metrics, then every route, one error handler.
import { Hono, type Context } from 'hono'
import { methodNotAllowed } from 'hono/method-not-allowed'
import type { RequestIdVariables } from 'hono/request-id'
import { routePath } from 'hono/route'
import type { Logger } from 'pino'
import { ChangeLedger } from '../actors/change-ledger.ts'
import type { Registry } from '../actors/registry.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { Metrics } from '../observe/metrics.ts'
import { StatusReads, type StatusReadsOptions } from '../observe/status-reads.ts'
import { CLIENT_ID_PATTERN } from '../protocol/tokens.ts'
import type { Store } from '../store/store.ts'
import { applyMetrics } from '../observe/apply-metrics.ts'
import { createApplier } from '../topology/apply.ts'
import { LiveTopology } from '../topology/live-topology.ts'
import { stepSender, type JournaledRequest } from '../topology/send-step.ts'
import { Memory } from '../remember/memory.ts'
import { startConfirmations, type Clock } from '../remember/confirmation.ts'
import { startRestorer, type RestoreMode, type RestoreOutcome } from '../remember/restore.ts'
import { authenticate, describePrincipal, type AuthenticateOptions } from './auth.ts'
import { notFound, onError, STATUS } from './errors.ts'
import { bodilessHeads } from './json.ts'
import { openApiJson } from './openapi.ts'
import { presenters, type NfvStatusWords } from './present.ts'
import { processesOf } from './processes.ts'
import { recordChanges } from './record-changes.ts'
import { requestIds } from './request-id.ts'
import { mount, type EventStreamOptions, type JournalSource } from './route.ts'
import { ROUTES } from './routes/all.ts'
import { assetRoutes, UI_PATHS } from './ui-routes.ts'
import { bodyLimits } from './validate.ts'

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
  /** The state directory's store (none with --state-dir none), --restore, and restores counted. */
  remember?: { store: Store; mode: RestoreMode; onRestore: (outcome: RestoreOutcome) => void }
  /** The change journal GET /v1/journal reads (the store); without it, that answers 404. */
  journal?: JournalSource
  /** The time and timer of confirmations (confirm_within), node's unless a test gives its own. */
  clock?: Clock
  /** How long a status read answers every reader again (--status-max-age), and its clock. */
  statusReads?: StatusReadsOptions
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
          who: describePrincipal(c.get('principal')),
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
        c.text('Method not allowed.', 405, { Allow: methods.join(',') }),
    }),
  )
  app.use(bodyLimits({ maxBytes: maxBodyBytes }))
  // Every change is remembered, and journaled, before its answer goes out.
  const { remember } = options
  const memory = remember && new Memory(remember.store, registry, log)
  const ledger = new ChangeLedger(registry)
  const onJournaled = ({ by, requestId, method, path, status }: JournaledRequest) =>
    hub.publish('journal.entry', { by, request_id: requestId, method, path, status })
  app.use(recordChanges({ ledger, memory, onJournaled }))
  // Apply and restore steps are asked through the processes' handles with the routes' table and
  // checks, and remembered as a request's changes are.
  const send = stepSender({
    registry,
    ledger,
    statusOf: (code) => STATUS[code],
    log,
    remember:
      memory &&
      ((changes, step, restoring, group) => memory.record(changes, [], step, restoring, group)),
    onJournaled,
  })
  // An apply plans once the restores under way are over.
  const applier = createApplier({
    registry,
    hub,
    log,
    send,
    settled: async () => memory?.settled(),
    note: (run, note) => memory?.note(run, note) ?? (() => {}),
    keep: async (before, run, note) => memory?.keepBefore(before, run, note),
    refuse: () => confirmations.refusal(),
  })
  // An apply made with confirm_within is undone unless confirmed in time; one pending when the
  // controller stopped is undone now (and counted: the metrics first).
  const countConfirmation = applyMetrics(metrics.registry, () => confirmations.pending())
  const confirmations = startConfirmations({
    store: remember?.store,
    applier: () => applier,
    hub,
    log,
    clock: options.clock,
    onOutcome: countConfirmation,
  })
  const restorer =
    remember &&
    startRestorer({
      registry,
      memory: memory!,
      hub,
      log,
      mode: remember.mode,
      onOutcome: remember.onRestore,
      send,
    })
  const reads = new StatusReads(registry, options.statusReads)
  const deps = {
    registry,
    processes: processesOf(registry, reads),
    reads,
    topology: new LiveTopology(registry, reads),
    memory,
    restorer,
    confirmations,
    hub,
    metrics,
    events,
    present: presenters(nfvStatus),
    applier,
    journal: options.journal ?? remember?.store,
    sysfsCpu: options.sysfsCpu ?? '/sys/devices/system/cpu',
    openApiJson: openApiJson(),
  }
  app.route('/', mount(ROUTES, deps))
  app.route('/', assetRoutes()) // the files the pages load (src/ui)
  app.notFound(notFound)
  app.onError(onError((err) => log.error({ err }, 'unexpected error while serving a request')))
  // The fleet (--etcd) takes what etcd desires into memory and has it restored.
  return Object.assign(app, {
    remembering: memory && restorer && { memory, restorer },
    confirmations,
  })
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
