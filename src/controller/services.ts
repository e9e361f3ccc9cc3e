// What the controller runs beside its listeners, made once and handed to the REST app: what it
// remembers, the ledger of each cause's changes, apply with its confirmations, restores, and the
// status reads that dashboards share.
import type { Logger } from 'pino'
import { ChangeLedger } from '../actors/change-ledger.ts'
import type { Registry } from '../actors/registry.ts'
import { STATUS } from '../http/errors.ts'
import { applyMetrics } from '../observe/apply-metrics.ts'
import type { EventHub } from '../observe/event-hub.ts'
import type { Metrics } from '../observe/metrics.ts'
import { CounterHistory } from '../observe/counter-history.ts'
import { StatusReads, type StatusReadsOptions } from '../observe/status-reads.ts'
import { startConfirmations, type Clock } from '../remember/confirmation.ts'
import { Memory } from '../remember/memory.ts'
import { startRestorer, type RestoreMode, type RestoreOutcome } from '../remember/restore.ts'
import type { JournaledRequest, Store } from '../store/store.ts'
import { createApplier } from '../topology/apply.ts'
import { PathWatch, type Timer } from '../topology/path-watch.ts'
import { stepSender } from '../topology/send-step.ts'

export type ServicesOptions = {
  registry: Registry
  log: Logger
  hub: EventHub
  metrics: Metrics
  /**
   * The state directory's store (none with --state-dir none), --restore, restores counted, and
   * how long a restore waits for a reader that is not connected yet (restore-order.ts).
   */
  remember?: {
    store: Store
    mode: RestoreMode
    onRestore: (outcome: RestoreOutcome) => void
    arrivalMs?: number
  }
  /** The time and timer of confirmations (confirm_within), node's unless a test gives its own. */
  clock?: Clock
  /** How long a status read answers every reader again (--status-max-age), and its clock. */
  statusReads?: StatusReadsOptions
  /** How the rates pushed wait for their next read (node's timer unless a test gives its own). */
  ratesTimer?: Timer
}

/** Makes them; `confirmations.close()` and `paths.close()` when the controller stops. */
export function startServices(options: ServicesOptions) {
  const { registry, log, hub, metrics, remember } = options
  const memory = remember && new Memory(remember.store, registry, log)
  const ledger = new ChangeLedger(registry)
  const onJournaled = ({ by, requestId, method, path, status }: JournaledRequest) =>
    hub.publish('journal.entry', { by, request_id: requestId, method, path, status })
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
      arrivalMs: remember.arrivalMs,
    })
  const reads = new StatusReads(registry, options.statusReads)
  // The paths and their verdicts, from the primary's reads kept with their times.
  const history = new CounterHistory(reads.now)
  history.follow(registry)
  const paths = new PathWatch({ registry, reads, history, hub, log, timer: options.ratesTimer })
  return { memory, ledger, onJournaled, applier, confirmations, restorer, reads, paths }
}
