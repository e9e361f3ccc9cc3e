// A connection's one timer: the deadline of the reply it waits for, costing no timer per command.
/** An actor's clock, as xstate has it; one that tells the time (SimulatedClock does) is asked it. */
export type DeadlineClock = {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(id: unknown): void
  now?: () => number
}

/**
 * The deadline of the one reply a connection waits for (a command's, or its handshake's). Arming
 * it per command is a store, not a timer: one clock timer per connection is set for the whole
 * timeout, and when it fires for a command that was answered meanwhile, it is set again for what
 * remains of the command in flight now, if any. So the timeout fires when it is due (never
 * early, on the actor's clock), and a process answering thousands of commands a second costs a
 * timer about once per timeout, instead of a setTimeout and a clearTimeout per command.
 */
export class ReplyDeadline {
  readonly #clock: DeadlineClock
  readonly #expired: () => void
  #due: number | undefined
  #timer: unknown
  #timerDue = Infinity

  /** `expired` is called once per armed deadline that passes without `disarm`. */
  constructor(clock: DeadlineClock, expired: () => void) {
    this.#clock = clock
    this.#expired = expired
  }

  /** Expects a reply within `ms` from now (replacing any earlier deadline). */
  arm(ms: number): void {
    const due = this.#now() + ms
    this.#due = due
    if (this.#timerDue > due) this.#set(due)
  }

  /** The reply came (or none is awaited any more). */
  disarm(): void {
    this.#due = undefined
  }

  /** Whether a deadline is armed. */
  get armed(): boolean {
    return this.#due !== undefined
  }

  /** Disarms and lets the clock's timer go (the connection closed). */
  stop(): void {
    this.#due = undefined
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer)
    this.#timer = undefined
    this.#timerDue = Infinity
  }

  #now(): number {
    return this.#clock.now ? this.#clock.now() : performance.now()
  }

  #set(due: number) {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer)
    this.#timerDue = due
    this.#timer = this.#clock.setTimeout(this.#fire, Math.max(0, due - this.#now()))
    // Never what keeps the process running: its socket does, while there is one.
    ;(this.#timer as { unref?: () => void }).unref?.()
  }

  #fire = () => {
    this.#timer = undefined
    this.#timerDue = Infinity
    const due = this.#due
    if (due === undefined) return
    if (due > this.#now()) return this.#set(due)
    this.#due = undefined
    this.#expired()
  }
}
