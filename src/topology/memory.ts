// What the controller remembers of each process, kept with every change it confirms: the request
// path records the commands it sent, and commits them with their journal entry in one transaction.
import type { Logger } from 'pino'
import type { Registry } from '../actors/registry.ts'
import type { ErrorCode } from '../errors.ts'
import type { Change } from '../protocol/effects.ts'
import type { ProcessView } from '../state/process-view.ts'
import type { JournalCommand, JournalEntry, Store } from '../store/store.ts'
import { driftOf, inSync } from './drift.ts'
import { configOfView, processName, storeKey, withChanges } from './process-config.ts'
import type { ProcessRef } from './process-config.ts'

/** A change command a request sent (or may have: it failed after it was written), and its outcome. */
export type SentCommand = {
  process: ProcessRef
  line: string
  change: Change
  outcome: 'ok' | { error: ErrorCode; message: string }
  /** The process's view now (its connection's, if it has gone since). */
  view: () => ProcessView | undefined
}

/** The change commands one request sent, in the order they were answered, and what it forgot. */
export type ChangeRecord = { sent: SentCommand[]; forgotten: ProcessRef[] }

/** Failures that say the command never reached the process: nothing to journal. */
export const NOT_SENT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_REQUEST',
  'QUEUE_FULL',
  'PROCESS_UNAVAILABLE',
  'PROCESS_UNRESPONSIVE',
  'PROCESS_NOT_FOUND',
  'NOT_IN_RELEASE',
  'CLIENT_GONE',
])

/** The request a record belongs to, as the journal tells it. */
export type RecordedRequest = Omit<JournalEntry, 'commands' | 'processes' | 'time'>

/**
 * Each process's remembered configuration, and whether it drifts from it. While a process drifts
 * (not restored: `--restore report|off`, a refused or failed restore), a client's change is applied
 * to the remembered configuration instead of copying the live view, which would erase what the
 * operator has not restored yet; once the two agree again, the view is copied as before.
 */
export class Memory {
  readonly store: Store
  readonly log: Logger
  readonly #registry: Registry
  readonly #drifting = new Set<string>()
  readonly #turns = new Map<string, Promise<void>>()

  constructor(store: Store, registry: Registry, log: Logger) {
    this.store = store
    this.log = log
    this.#registry = registry
  }

  /** Whether a process is known to drift from its remembered configuration. */
  drifting(ref: ProcessRef): boolean {
    return this.#drifting.has(processName(ref))
  }

  /** Marks a process as drifting or not. */
  setDrifting(ref: ProcessRef, drifting: boolean): void {
    if (drifting) this.#drifting.add(processName(ref))
    else this.#drifting.delete(processName(ref))
  }

  /** What a change to a process must wait for (its restore), or undefined. */
  turn(ref: ProcessRef): Promise<void> | undefined {
    return this.#turns.get(processName(ref))
  }

  /**
   * Runs `work` once the process's earlier work is over; changes to it wait until `work` is over
   * too (reads do not). Taken at once: a change arriving in the same turn already waits.
   */
  exclusive<T>(ref: ProcessRef, work: () => Promise<T>): Promise<T> {
    const name = processName(ref)
    const result = (this.#turns.get(name) ?? Promise.resolve()).then(work)
    const turn = result.then(
      () => undefined,
      () => undefined,
    )
    this.#turns.set(name, turn)
    void turn.then(() => {
      if (this.#turns.get(name) === turn) this.#turns.delete(name)
    })
    return result
  }

  /** Resolves once the turns under way now (identifications, restores) are over. */
  async settled(): Promise<void> {
    if (this.#turns.size === 0) return
    this.log.debug({ processes: [...this.#turns.keys()] }, 'waiting for the restores under way')
    await Promise.all(this.#turns.values())
  }

  /** Forgets a process: it will not be restored. */
  forget(ref: ProcessRef): void {
    const key = storeKey(ref)
    if (key) this.store.put(key, undefined)
    this.setDrifting(ref, false)
  }

  /**
   * Queues, in one synchronous run (one transaction), each touched process's new configuration
   * and the request's journal entry; resolves once both are durable. Nothing is written for a
   * request that sent no change and forgot nothing. A restore's own steps leave the configuration
   * as it is: they bring the process back to it.
   */
  commit(
    record: ChangeRecord,
    request: RecordedRequest,
    restore = false,
  ): Promise<void> | undefined {
    if (record.sent.length === 0 && record.forgotten.length === 0) return undefined
    for (const process of record.forgotten) this.forget(process)
    const byProcess = new Map<string, SentCommand[]>()
    for (const sent of record.sent) {
      const name = processName(sent.process)
      byProcess.set(name, [...(byProcess.get(name) ?? []), sent])
    }
    if (!restore) for (const sent of byProcess.values()) this.#remember(sent)
    const commands: JournalCommand[] = record.sent.map(({ line, outcome }) => ({ line, outcome }))
    const processes = [...byProcess.keys(), ...record.forgotten.map(processName)]
    this.store.journal({ ...request, commands, processes })
    return this.store.sync()
  }

  #remember(sent: SentCommand[]): void {
    const { process } = sent[0]!
    const key = storeKey(process)
    const done = sent.filter((s) => s.outcome === 'ok').map((s) => s.change)
    if (!key || done.length === 0) return
    if (done.some((change) => change.kind === 'exit')) return this.forget(process)
    // Recalled only while drifting: a recall parses the remembered JSON, and most changes copy the view.
    const remembered = this.drifting(process) ? this.store.recall(key) : undefined
    if (remembered) {
      const config = withChanges(process, remembered, done)
      if (!config) return
      this.store.put(key, config)
      if (inSync(driftOf(this.#registry, key, config))) this.setDrifting(process, false)
      return
    }
    const config = configOfView(process, sent.at(-1)!.view())
    if (config) this.store.put(key, config)
  }
}
