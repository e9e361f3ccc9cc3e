import { EventEmitter } from 'node:events'
import { ControllerError } from '../errors.ts'
import type { ProcessKind, SecondaryKind } from '../protocol/types.ts'
import type { ProcessConnection } from './process-connection.ts'

/** An identified process. The primary has no client id. */
export type ProcessEntry = { kind: ProcessKind; clientId?: number; connection: ProcessConnection }
/** An element of GET /v1/processes. */
export type ProcessListing = { type: ProcessKind; 'client-id'?: number }

type RegistryEvents = {
  registered: [entry: ProcessEntry, replaced: ProcessEntry | undefined]
  removed: [entry: ProcessEntry]
}

/**
 * Who is connected. The primary has a slot of its own, so a secondary with client id 0 never
 * replaces it. A second connection with the same identity replaces the first.
 */
export class Registry extends EventEmitter<RegistryEvents> {
  #primary: ProcessEntry | undefined
  readonly #secondaries = new Map<number, ProcessEntry>()
  #listing: ProcessListing[] | undefined // kept until the next change: dashboards poll it

  register(entry: ProcessEntry): void {
    const replaced = this.#slot(entry)
    if (entry.kind === 'primary') this.#primary = entry
    else this.#secondaries.set(entry.clientId!, entry)
    this.#listing = undefined
    replaced?.connection.send({
      type: 'close',
      reason: 'replaced by a new connection with the same identity',
    })
    this.emit('registered', entry, replaced)
  }

  /** Forgets a connection, if it is still the registered one for its identity. */
  unregister(connection: ProcessConnection): void {
    for (const entry of this.entries()) {
      if (entry.connection !== connection) continue
      if (entry.kind === 'primary') this.#primary = undefined
      else this.#secondaries.delete(entry.clientId!)
      this.#listing = undefined
      this.emit('removed', entry)
    }
  }

  primary(): ProcessEntry {
    if (!this.#primary) throw new ControllerError('PROCESS_NOT_FOUND', 'primary not found.')
    return this.#primary
  }

  /** The secondary with this client id, if it is of this kind (an nfv id under /v1/vfs is not found). */
  secondary(kind: SecondaryKind, clientId: number): ProcessEntry {
    const entry = this.#secondaries.get(clientId)
    if (entry?.kind !== kind)
      throw new ControllerError('PROCESS_NOT_FOUND', `sec_id ${clientId} not found.`)
    return entry
  }

  entries(): ProcessEntry[] {
    return this.#primary
      ? [this.#primary, ...this.#secondaries.values()]
      : [...this.#secondaries.values()]
  }

  /** The primary first, then the secondaries by client id: stable for dashboards that diff it. */
  list(): ProcessListing[] {
    return (this.#listing ??= this.entries()
      .sort((a, b) => (a.clientId ?? -Infinity) - (b.clientId ?? -Infinity))
      .map(({ kind, clientId }) =>
        kind === 'primary' ? { type: kind } : { type: kind, 'client-id': clientId! },
      ))
  }

  #slot(entry: ProcessEntry) {
    return entry.kind === 'primary' ? this.#primary : this.#secondaries.get(entry.clientId!)
  }
}
