// Who is connected: one served connection per identity, claimants on standby, unsent commands held.
import { EventEmitter } from 'node:events'
import { ControllerError } from '../errors.ts'
import type { ProcessKind, SecondaryKind } from '../protocol/command.ts'
import { askStatus, enqueue } from './ask.ts'
import { refuse, type Job } from './job.ts'
import { processLabel } from './label.ts'
import type { ProcessConnection } from './process-connection.ts'

/** An identified process. The primary has no client id; `peer` is its address and port. */
export type ProcessEntry = {
  kind: ProcessKind
  clientId?: number
  connection: ProcessConnection
  peer: string
}
/** An element of GET /v1/processes. */
export type ProcessListing = { type: ProcessKind; 'client-id'?: number }

type RegistryEvents = {
  registered: [entry: ProcessEntry, replaced: ProcessEntry | undefined]
  removed: [entry: ProcessEntry]
  /** A second live connection claimed an identity that is served: it waits on standby. */
  conflict: [served: ProcessEntry, claimant: ProcessEntry]
}

const keyOf = ({ kind, clientId }: { kind: ProcessKind; clientId?: number }) =>
  kind === 'primary' ? 'primary' : `#${clientId}` // secondaries share one id space
/** Probe outcomes that show the served connection is not there to answer. */
const UNANSWERED = new Set(['REPLY_TIMEOUT', 'PROCESS_UNRESPONSIVE', 'BAD_REPLY'])
const active = (entry: ProcessEntry) => entry.connection.getSnapshot().status === 'active'

/**
 * Who is connected. The primary has a slot of its own, so a secondary with client id 0 never
 * replaces it. A connection claiming an identity that is served does not replace it at once: two
 * live processes with one id would otherwise replace each other without end (a real spp_nfv
 * reconnects as soon as it is dropped). The served one is asked its status; if it answers, the
 * claimant waits on standby and is served when the other goes; if not, the claimant takes over.
 */
export class Registry extends EventEmitter<RegistryEvents> {
  readonly #served = new Map<string, ProcessEntry>()
  readonly #standby = new Map<string, ProcessEntry[]>()
  readonly #probing = new Set<string>()
  readonly #held = new Map<string, { kind: ProcessKind; jobs: Job[]; timer: NodeJS.Timeout }>()
  #listing: ProcessListing[] | undefined // kept until the next change: dashboards poll it
  #closing = false

  /** A connection that has identified itself. */
  claim(entry: ProcessEntry): void {
    const key = keyOf(entry)
    const served = this.#served.get(key)
    if (!served || !active(served)) return this.#serve(entry, served)
    this.#standby.set(key, [...(this.#standby.get(key) ?? []), entry])
    this.emit('conflict', served, entry)
    if (this.#probing.has(key)) return
    this.#probing.add(key)
    askStatus(served.connection, served.kind)
      .catch((error: ControllerError) => {
        // A full queue means busy, not gone; a closed connection is already being replaced.
        if (!UNANSWERED.has(error.code) || this.#served.get(key) !== served) return
        served.connection.send({ type: 'close', reason: 'did not answer while its id was claimed' })
      })
      .finally(() => this.#probing.delete(key))
  }

  /** Forgets a connection; the first claimant on standby for its identity is served instead. */
  unregister(connection: ProcessConnection): void {
    for (const [key, waiting] of this.#standby) {
      const rest = waiting.filter((e) => e.connection !== connection)
      if (rest.length === waiting.length) continue
      if (rest.length) this.#standby.set(key, rest)
      else this.#standby.delete(key)
    }
    for (const [key, entry] of this.#served) {
      if (entry.connection !== connection) continue
      this.#served.delete(key)
      this.#listing = undefined
      this.emit('removed', entry)
      const next = this.#nextStandby(key)
      if (next) this.#serve(next, undefined)
    }
  }

  /**
   * Commands a closed connection never wrote: they wait for the same process to come back, and
   * fail if it has not within `deadlineMs`.
   */
  hold(identity: { kind: ProcessKind; clientId?: number }, jobs: Job[], deadlineMs: number) {
    if (this.#closing) return this.#refuseAll(jobs)
    const key = keyOf(identity)
    const served = this.#served.get(key)
    if (served?.kind === identity.kind && active(served)) return this.#resend(served, jobs)
    const held = this.#held.get(key)
    if (held?.kind === identity.kind) return void held.jobs.push(...jobs)
    const who = processLabel(identity)
    const timer = setTimeout(() => {
      this.#held.delete(key)
      const message = `not sent: ${who} disconnected and did not come back within ${deadlineMs} ms`
      for (const job of jobs) refuse(job, message, 'PROCESS_UNAVAILABLE')
    }, deadlineMs)
    this.#held.set(key, { kind: identity.kind, jobs, timer })
  }

  primary(): ProcessEntry {
    const entry = this.#served.get('primary')
    if (!entry) throw new ControllerError('PROCESS_NOT_FOUND', 'primary not found.')
    return entry
  }

  /** The secondary with this client id, if it is of this kind (an nfv id under /v1/vfs is not found). */
  secondary(kind: SecondaryKind, clientId: number): ProcessEntry {
    const entry = this.#served.get(`#${clientId}`)
    if (entry?.kind !== kind) {
      throw new ControllerError('PROCESS_NOT_FOUND', `sec_id ${clientId} not found.`)
    }
    return entry
  }

  /** The process a request addresses, as it is connected now (404 if it is not). */
  find(kind: ProcessKind, clientId?: number): ProcessEntry {
    return kind === 'primary' ? this.primary() : this.secondary(kind, clientId ?? NaN)
  }

  entries(): ProcessEntry[] {
    return [...this.#served.values()]
  }

  /** The primary first, then the secondaries by client id: stable for dashboards that diff it. */
  list(): ProcessListing[] {
    return (this.#listing ??= this.entries()
      .sort((a, b) => (a.clientId ?? -Infinity) - (b.clientId ?? -Infinity))
      .map(({ kind, clientId }) =>
        kind === 'primary' ? { type: kind } : { type: kind, 'client-id': clientId! },
      ))
  }

  /** Fails every held command, and any handed over from now on (shutdown). */
  close(): void {
    this.#closing = true
    for (const { jobs, timer } of this.#held.values()) {
      clearTimeout(timer)
      this.#refuseAll(jobs)
    }
    this.#held.clear()
  }

  #refuseAll(jobs: Job[]) {
    for (const job of jobs)
      refuse(job, 'not sent: the controller is shutting down', 'CONNECTION_CLOSED')
  }

  #serve(entry: ProcessEntry, replaced: ProcessEntry | undefined) {
    const key = keyOf(entry)
    this.#served.set(key, entry)
    this.#listing = undefined
    if (replaced && active(replaced)) {
      replaced.connection.send({
        type: 'close',
        reason: 'replaced by a new connection with the same identity',
      })
    }
    this.emit('registered', entry, replaced)
    const held = this.#held.get(key)
    if (!held) return
    this.#held.delete(key)
    clearTimeout(held.timer)
    if (held.kind === entry.kind) this.#resend(entry, held.jobs)
    else
      for (const job of held.jobs)
        refuse(job, `not sent: ${processLabel(entry)} took over the id`, 'PROCESS_UNAVAILABLE')
  }

  #resend(entry: ProcessEntry, jobs: Job[]) {
    for (const job of jobs) enqueue(entry.connection, job)
  }

  #nextStandby(key: string): ProcessEntry | undefined {
    const waiting = (this.#standby.get(key) ?? []).filter(active)
    const [next, ...rest] = waiting
    if (rest.length) this.#standby.set(key, rest)
    else this.#standby.delete(key)
    return next
  }
}
