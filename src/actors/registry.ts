// Who is connected: one served connection per process, claimants on standby, unsent commands
// held; it hands out handles, and tells every process's settled commands as one stream.
import { EventEmitter } from 'node:events'
import { ControllerError } from '../protocol/errors.ts'
import { idText, notConnected, sameId, slotOf, type ProcessId } from '../protocol/process-id.ts'
import { statusOf } from '../protocol/kinds/status.ts'
import {
  askOn,
  connectionHandle,
  handleOver,
  type ChangeGate,
  type ProcessHandle,
} from './process-handle.ts'
import { refuseAll, type Job } from './job.ts'
import type { ProcessConnection } from './process-connection.ts'
import type { Settled } from './settled.ts'

/** An element of GET /v1/processes. */
export type ProcessListing = { type: ProcessId['kind']; 'client-id'?: number }

/** A served or waiting connection, and the handle that answers for it. */
type Entry = { id: ProcessId; connection: ProcessConnection; handle: ProcessHandle }

type RegistryEvents = {
  registered: [process: ProcessHandle, replaced: ProcessHandle | undefined]
  removed: [process: ProcessHandle]
  /** A second live connection claimed an identity that is served: it waits on standby. */
  conflict: [served: ProcessHandle, claimant: ProcessHandle]
  /** A listener of the change stream threw: the process's connection is dropped for it. */
  fault: [process: ProcessHandle, error: unknown]
}

/** Probe outcomes that show the served connection is not there to answer. */
const UNANSWERED = new Set(['REPLY_TIMEOUT', 'PROCESS_UNRESPONSIVE', 'BAD_REPLY'])
const SHUTTING_DOWN = 'not sent: the controller is shutting down'
const active = (entry: Entry) => entry.connection.getSnapshot().status === 'active'

/**
 * Who is connected. The primary has a slot of its own, so a secondary with client id 0 never
 * replaces it. A connection claiming an identity that is served does not replace it at once: two
 * live processes with one id would otherwise replace each other without end (a real spp_nfv
 * reconnects as soon as it is dropped). The served one is asked its status; if it answers, the
 * claimant waits on standby and is served when the other goes; if not, the claimant takes over.
 */
export class Registry extends EventEmitter<RegistryEvents> {
  readonly #served = new Map<string, Entry & { unsubscribe: () => void }>()
  readonly #standby = new Map<string, Entry[]>()
  readonly #probing = new Set<string>()
  readonly #held = new Map<string, { id: ProcessId; jobs: Job[]; timer: NodeJS.Timeout }>()
  readonly #listeners = new Set<(settled: Settled) => void>()
  #gate: ChangeGate | undefined
  #listing: ProcessListing[] | undefined // kept until the next change: dashboards poll it
  #closing = false

  /** A connection whose handshake named its process. */
  claim(connection: ProcessConnection, id: ProcessId): void {
    const entry: Entry = { id, connection, handle: connectionHandle(connection, id) }
    const slot = slotOf(id)
    const served = this.#served.get(slot)
    if (!served || !active(served)) return this.#serve(entry, served)
    this.#standby.set(slot, [...(this.#standby.get(slot) ?? []), entry])
    this.emit('conflict', served.handle, entry.handle)
    if (this.#probing.has(slot)) return
    this.#probing.add(slot)
    askOn(served.connection, statusOf(served.id.kind))
      .catch((error: ControllerError) => {
        // A full queue means busy, not gone; a closed connection is already being replaced.
        if (!UNANSWERED.has(error.code) || this.#served.get(slot) !== served) return
        served.handle.close('did not answer while its id was claimed')
      })
      .finally(() => this.#probing.delete(slot))
  }

  /** Forgets a connection; the first claimant on standby for its identity is served instead. */
  unregister(connection: ProcessConnection): void {
    for (const [slot, waiting] of this.#standby) {
      const rest = waiting.filter((e) => e.connection !== connection)
      if (rest.length === waiting.length) continue
      if (rest.length) this.#standby.set(slot, rest)
      else this.#standby.delete(slot)
    }
    for (const [slot, entry] of this.#served) {
      if (entry.connection !== connection) continue
      this.#served.delete(slot)
      entry.unsubscribe()
      this.#listing = undefined
      this.emit('removed', entry.handle)
      const next = this.#nextStandby(slot)
      if (next) this.#serve(next, undefined)
    }
  }

  /**
   * Commands a closed connection never wrote: they wait for the same process to come back, and
   * fail if it has not within `deadlineMs`.
   */
  hold(id: ProcessId, jobs: Job[], deadlineMs: number): void {
    if (this.#closing) return refuseAll(jobs, SHUTTING_DOWN, 'CONNECTION_CLOSED')
    const slot = slotOf(id)
    const served = this.#served.get(slot)
    if (served && sameId(served.id, id) && active(served)) return this.#resend(served, jobs)
    const held = this.#held.get(slot)
    if (held && sameId(held.id, id))
      return void this.#held.set(slot, { ...held, jobs: [...held.jobs, ...jobs] })
    // Another kind held in the same slot (nfv:1, then vf:1) can no longer come back to it.
    if (held) this.#release(slot, `not sent: ${idText(id)} took over the id`)
    const timer = setTimeout(
      () =>
        this.#release(
          slot,
          `not sent: ${idText(id)} disconnected and did not come back within ${deadlineMs} ms`,
        ),
      deadlineMs,
    )
    this.#held.set(slot, { id, jobs, timer })
  }

  /**
   * The process a request addresses, as it is connected now (404, in SPP's words, if it is not):
   * its commands go to its connection of the moment.
   */
  find(id: ProcessId): ProcessHandle {
    let entry = this.#entry(id)
    const current = () => {
      if (!active(entry)) entry = this.#entry(id)
      return entry.connection
    }
    return handleOver(id, current, (id, cause) => this.#gate?.(id, cause))
  }

  /** Sets what a change found through `find` waits for before it is queued (see ChangeGate). */
  gateChanges(gate: ChangeGate): void {
    this.#gate = gate
  }

  /** Whether a process is served now. */
  has(id: ProcessId): boolean {
    const entry = this.#served.get(slotOf(id))
    return entry !== undefined && sameId(entry.id, id)
  }

  /** Every served process's handle, in no particular order. */
  processes(): ProcessHandle[] {
    return [...this.#served.values()].map((entry) => entry.handle)
  }

  /** The primary first, then the secondaries by client id: stable for dashboards that diff it. */
  list(): ProcessListing[] {
    return (this.#listing ??= [...this.#served.values()]
      .map((entry) => entry.id)
      .sort((a, b) => (a.clientId ?? -Infinity) - (b.clientId ?? -Infinity))
      .map((id) =>
        id.kind === 'primary' ? { type: id.kind } : { type: id.kind, 'client-id': id.clientId },
      ))
  }

  /**
   * Calls `listener` with every command any served process settles, until the function returned
   * is called: the one stream that the log, the memory, the events, the metrics and the fleet
   * hear changes from.
   */
  changes(listener: (settled: Settled) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Fails every held command, and any handed over from now on (shutdown). */
  close(): void {
    this.#closing = true
    for (const { jobs, timer } of this.#held.values()) {
      clearTimeout(timer)
      refuseAll(jobs, SHUTTING_DOWN, 'CONNECTION_CLOSED')
    }
    this.#held.clear()
  }

  #entry(id: ProcessId): Entry {
    const entry = this.#served.get(slotOf(id))
    if (entry && sameId(entry.id, id)) return entry
    // SPP's text first, word for word (its clients read it); then which processes there are.
    const spp = id.kind === 'primary' ? 'primary not found.' : `sec_id ${id.clientId} not found.`
    const why = notConnected(
      id,
      [...this.#served.values()].map((e) => e.id),
    )
    throw new ControllerError(
      'PROCESS_NOT_FOUND',
      `${spp}\n${why[0]!.toUpperCase()}${why.slice(1)}`,
    )
  }

  /** Refuses what is held in a slot, and forgets it. */
  #release(slot: string, message: string) {
    const held = this.#held.get(slot)
    if (!held) return
    this.#held.delete(slot)
    clearTimeout(held.timer)
    refuseAll(held.jobs, message, 'PROCESS_UNAVAILABLE')
  }

  /**
   * Tells every listener; one that throws does not keep the others from hearing. A fault drops
   * that process's connection (it reconnects on a clean one) and nothing else.
   */
  #tell(entry: Entry, settled: Settled) {
    let fault: { error: unknown } | undefined
    for (const listener of this.#listeners) {
      try {
        listener(settled)
      } catch (error) {
        fault ??= { error }
      }
    }
    if (!fault) return
    this.emit('fault', entry.handle, fault.error)
    entry.handle.close('internal error in the controller')
  }

  #serve(entry: Entry, replaced: (Entry & { unsubscribe: () => void }) | undefined) {
    const slot = slotOf(entry.id)
    replaced?.unsubscribe()
    const subscription = entry.connection.on('settled', ({ settled }) => this.#tell(entry, settled))
    this.#served.set(slot, { ...entry, unsubscribe: () => subscription.unsubscribe() })
    this.#listing = undefined
    if (replaced && active(replaced))
      replaced.handle.close('replaced by a new connection with the same identity')
    this.emit('registered', entry.handle, replaced?.handle)
    const held = this.#held.get(slot)
    if (!held) return
    if (!sameId(held.id, entry.id))
      return this.#release(slot, `not sent: ${idText(entry.id)} took over the id`)
    this.#held.delete(slot)
    clearTimeout(held.timer)
    this.#resend(entry, held.jobs)
  }

  #resend(entry: Entry, jobs: Job[]) {
    for (const job of jobs) entry.connection.send({ type: 'command', job })
  }

  #nextStandby(slot: string): Entry | undefined {
    const waiting = (this.#standby.get(slot) ?? []).filter(active)
    const [next, ...rest] = waiting
    if (rest.length) this.#standby.set(slot, rest)
    else this.#standby.delete(slot)
    return next
  }
}
