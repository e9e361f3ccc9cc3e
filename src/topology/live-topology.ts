// GET /v1/topology for dashboards: the document built once per change from the shared status
// reads, with its ETag, so that a poll that finds nothing new builds nothing.
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import type { Cause } from '../actors/settled.ts'
import type { StatusReads } from '../observe/status-reads.ts'
import { topologyEtag } from './etag.ts'
import {
  documentOf,
  documentOrder,
  unreadable,
  type TopologyDocument,
  type Unreadable,
} from './read-topology.ts'

/** The document as shown now: its ETag, and when its oldest read was answered (the reads' clock). */
export type ShownTopology = {
  readonly document: TopologyDocument
  readonly etag: string
  readonly readAt: number
}

/** What a document was built from: each process (in order) and what its read gave. */
type Built = ShownTopology & {
  processes: ProcessHandle[]
  states: (object | Unreadable)[]
  /** The reads' forgettings it has seen, and until when (the reads' clock) it is fresh. */
  generation: number
  freshUntil: number
}

/**
 * Every connected process's status in one document, each read at most `reads.maxAgeMs` ago and
 * shared with every other reader of that process. While every read is fresh and nothing was
 * forgotten (a change, a connection), the document is the one already built, ETag and all; when
 * a read is due, it is made (one per process, however many readers wait) and the document is
 * built again only if a process or what it shows differs. A failed read is shown as
 * `{"error": ...}` and read again by the next reader.
 */
export class LiveTopology {
  readonly #registry: Registry
  readonly #reads: StatusReads
  #built: Built | undefined
  #refreshing: { generation: number; shown: Promise<ShownTopology> } | undefined
  #generation = 0

  constructor(registry: Registry, reads: StatusReads) {
    this.#registry = registry
    this.#reads = reads
    reads.onForgotten(() => this.#generation++)
  }

  /**
   * The document now: at once when it is fresh, else once the reads that are due are answered
   * (readers that come meanwhile share them, unless something was forgotten since they began);
   * the reads made are caused by `cause`, the request that found them due.
   */
  current(cause?: Cause): ShownTopology | Promise<ShownTopology> {
    const generation = this.#generation
    const built = this.#built
    if (built && built.generation === generation && this.#reads.now() < built.freshUntil)
      return built
    if (this.#refreshing?.generation === generation) return this.#refreshing.shown
    const refreshing = { generation, shown: this.#refresh(generation, cause) }
    this.#refreshing = refreshing
    const done = () => {
      if (this.#refreshing === refreshing) this.#refreshing = undefined
    }
    refreshing.shown.then(done, done)
    return refreshing.shown
  }

  async #refresh(generation: number, cause: Cause | undefined): Promise<ShownTopology> {
    const processes = documentOrder(this.#registry)
    const reads = await Promise.all(
      processes.map((process) => this.#reads.read(process, cause).catch(unreadable)),
    )
    const now = this.#reads.now()
    const states = reads.map((read) => ('body' in read ? read.body : read))
    const readAt = Math.min(now, ...reads.map((read) => ('at' in read ? read.at : now)))
    const failed = reads.some((read) => !('body' in read))
    const freshUntil = failed ? -Infinity : readAt + this.#reads.maxAgeMs
    const last = this.#built
    const same =
      last !== undefined &&
      last.processes.length === processes.length &&
      processes.every((process, i) => process === last.processes[i]) &&
      states.every((state, i) => sameState(state, last.states[i]!))
    const document = same ? last.document : documentOf(processes, states)
    const etag = same ? last.etag : topologyEtag(document)
    const shown = { document, etag, readAt, processes, states, generation, freshUntil }
    // A refresh begun before a forgetting may end after the one begun since: the later one stays.
    if (!last || generation >= last.generation) this.#built = shown
    return shown
  }
}

/** The same read (shared reads keep one body while it shows the same), or the same failure. */
const sameState = (a: object | Unreadable, b: object | Unreadable) =>
  a === b || ('error' in a && 'error' in b && a.error === b.error)
