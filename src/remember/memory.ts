// What the controller remembers of each process, kept with every change it confirms: each request's
// (or step's) changes, heard on the registry's change stream, with its journal entry in one
// transaction.
import type { Logger } from 'pino'
import type { Settled } from '../actors/settled.ts'
import type { Registry } from '../actors/registry.ts'
import { statusOf } from '../protocol/kinds/status.ts'
import { idText, PRIMARY, type ProcessId } from '../protocol/process-id.ts'
import type { ProcessView } from '../state/process-view.ts'
import type { Change } from '../protocol/effects.ts'
import type { JournalCommand, JournaledRequest, RevisionNote, Store } from '../store/store.ts'
import { driftOf, inSync } from './drift.ts'
import type { DesiredDocument } from '../topology/document.ts'
import {
  configOfView,
  entriesOf,
  idOfKey,
  storeKey,
  withChanges,
} from '../topology/process-config.ts'
import { runBy } from '../topology/apply.ts'
import { processesOf } from '../topology/undo.ts'

/** What the revision of a group of changes (an apply's steps) says: who, what, and a rollback's target. */
export type GroupNote = Required<Pick<RevisionNote, 'by' | 'what'>> & Pick<RevisionNote, 'to'>

/** A change in the words of a plan's summary (`forward.start`, not the effect's `nfv.forward`). */
const ACTIONS: Partial<Record<Change['kind'], string>> = {
  'nfv.forward': 'forward.start',
  'nfv.stop': 'forward.stop',
  'patch.reset': 'patches.reset',
}

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
  readonly #remembered = new Set<() => void>()
  readonly #notes = new Map<string, GroupNote>()

  constructor(store: Store, registry: Registry, log: Logger) {
    this.store = store
    this.log = log
    this.#registry = registry
    // A client's change to a process waits behind its restore; the restore's own steps do not.
    registry.gateChanges((id, cause) => {
      const turn = cause?.restoring ? undefined : this.turn(id)
      if (turn)
        log.debug(
          { req: cause?.requestId, process: idText(id) },
          'change waits for the restore of its process',
        )
      return turn
    })
  }

  /** Whether a process is known to drift from its remembered configuration. */
  drifting(ref: ProcessId): boolean {
    return this.#drifting.has(idText(ref))
  }

  /** Marks a process as drifting or not. */
  setDrifting(ref: ProcessId, drifting: boolean): void {
    if (drifting) this.#drifting.add(idText(ref))
    else this.#drifting.delete(idText(ref))
  }

  /** What a change to a process must wait for (its restore), or undefined. */
  turn(ref: ProcessId): Promise<void> | undefined {
    return this.#turns.get(idText(ref))
  }

  /**
   * Runs `work` once the process's earlier work is over; changes to it wait until `work` is over
   * too (reads do not). Taken at once: a change arriving in the same turn already waits.
   */
  exclusive<T>(ref: ProcessId, work: () => Promise<T>): Promise<T> {
    const name = idText(ref)
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

  /**
   * Says who made the changes of a group (the steps of apply `group`) and what they were, for
   * their revision, until the function returned is called.
   */
  note(group: string, note: GroupNote): () => void {
    this.#notes.set(group, note)
    return () => this.#notes.delete(group)
  }

  /**
   * Remembers processes as they were before an apply that could not bring them back (its undo
   * failed there): they drift from it, with the undo's revision; resolves once durable.
   */
  async keepBefore(before: DesiredDocument, run: string, note: GroupNote): Promise<void> {
    const entries = entriesOf(before)
    for (const [key, config] of entries) {
      this.store.put(key, config)
      this.setDrifting(idOfKey(key), true)
    }
    const processes = processesOf(before)
    this.store.journal(
      {
        ...{ by: runBy(note.what, run, note.by), requestId: run, method: 'POST' },
        path: '/v1/topology/apply',
        ...{ commands: [], status: 200, processes },
      },
      { ...note, group: run, requestId: run, summary: { drift: processes.length } },
    )
    await this.store.sync()
  }

  /** Forgets a process: it will not be restored. */
  forget(ref: ProcessId): void {
    const key = storeKey(ref)
    if (key) this.store.put(key, undefined)
    this.setDrifting(ref, false)
  }

  /**
   * Remembers what one request changed: each touched process's new configuration and the
   * request's journal entry are queued in one synchronous run (one transaction); resolves once
   * both are durable. Nothing is written for a request that changed nothing and forgot nothing.
   * A restore's own steps leave the configuration as it is: they bring the process back to it. A
   * 2020 primary's view does not follow its forwarder's changes (their effect is only the
   * command): it is read once before it is remembered. A change of the remembered document makes
   * a revision, in the same transaction; the changes of a `group` in a row share one.
   */
  async record(
    changes: readonly Settled[],
    forgotten: readonly ProcessId[],
    request: JournaledRequest,
    restoring = false,
    group?: string,
  ): Promise<void> {
    if (changes.length === 0 && forgotten.length === 0) return
    const views = new Map<string, ProcessView | undefined>()
    for (const { process, after } of changes) views.set(idText(process), after)
    if (!restoring && changes.some((s) => s.outcome.ok && s.change?.kind === 'primary.changed'))
      views.set('primary', await this.#primaryView(views.get('primary')))
    for (const process of forgotten) this.forget(process)
    const byProcess = new Map<string, Settled[]>()
    for (const settled of changes) {
      const name = idText(settled.process)
      byProcess.set(name, [...(byProcess.get(name) ?? []), settled])
    }
    if (!restoring)
      for (const [name, settled] of byProcess) this.#remember(settled, views.get(name))
    const commands: JournalCommand[] = changes.map(({ line, outcome }) => ({
      line,
      outcome: outcome.ok ? 'ok' : { error: outcome.code, message: outcome.message },
    }))
    const processes = [...byProcess.keys(), ...forgotten.map(idText)]
    const summary: Record<string, number> = {}
    const count = (action: string) => (summary[action] = (summary[action] ?? 0) + 1)
    for (const { outcome, change } of changes)
      if (outcome.ok && change) count(ACTIONS[change.kind] ?? change.kind)
    for (const _ of forgotten) count('forget')
    const note = group === undefined ? undefined : this.#notes.get(group)
    const revision = {
      ...note,
      summary,
      ...(group === undefined ? {} : { group, requestId: group }),
    }
    this.store.journal({ ...request, commands, processes }, revision)
    await this.store.sync()
    for (const listener of this.#remembered) listener()
  }

  /**
   * Calls `listener` after each request's changes are durable (the fleet writes what is remembered
   * to etcd), until the function returned is called.
   */
  onRemembered(listener: () => void): () => void {
    this.#remembered.add(listener)
    return () => this.#remembered.delete(listener)
  }

  /** The primary's view after a status read (or as it was, if the read fails). */
  async #primaryView(was: ProcessView | undefined): Promise<ProcessView | undefined> {
    if (!this.#registry.has(PRIMARY)) return was
    const primary = this.#registry.find(PRIMARY)
    await primary.ask(statusOf('primary')).catch(() => undefined)
    return primary.describe().view ?? was
  }

  #remember(changes: Settled[], view: ProcessView | undefined): void {
    const { process } = changes[0]!
    const key = storeKey(process)
    const done = changes.flatMap((s) => (s.outcome.ok && s.change ? [s.change] : []))
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
    const config = configOfView(process, view)
    if (config) this.store.put(key, config)
  }
}
