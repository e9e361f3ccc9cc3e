// Who hears of each command a connection settles: the metrics, the events, the fleet's link.
import type { Effect } from '../protocol/effects.ts'
import type { Result } from '../protocol/result.ts'
import type { ProcessView } from '../state/process-view.ts'

/**
 * A command's outcome, for the logs, the event stream and the metrics: the request that sent it,
 * what it did (`reply`: the effect, or why it failed) and the view before and after.
 */
export type CommandDone = {
  type: 'commandDone'
  requestId: string | undefined
  line: string
  metric: string
  reply: Result<Effect>
  before: ProcessView
  after: ProcessView
  ms: number
}

/**
 * The listeners of a connection's settled commands. One object for the connection's life (the
 * context is copied by each `assign`, this is not), so that whether they are being told is seen
 * from any copy: while they run, a command one of them asks for is only queued (see ask.ts).
 */
export class DoneListeners {
  readonly #listeners = new Set<(done: CommandDone) => void>()
  #telling = false

  /** Adds a listener; the function returned removes it. */
  add(listener: (done: CommandDone) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** True while the listeners are being told of a command. */
  get telling(): boolean {
    return this.#telling
  }

  /**
   * Tells each listener in turn: one that throws does not keep the others from hearing; the
   * first error is thrown once all were told.
   */
  tell(done: CommandDone): void {
    let failure: { error: unknown } | undefined
    this.#telling = true
    try {
      for (const listener of this.#listeners) {
        try {
          listener(done)
        } catch (error) {
          failure ??= { error }
        }
      }
    } finally {
      this.#telling = false
    }
    if (failure) throw failure.error
  }
}
