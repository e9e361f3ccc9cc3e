// The event hub behind GET /v1/events: fan-out to streams and a replay buffer, and the rates
// pushed to the streams that asked for them.
/** One thing the controller learned, as sent on GET /v1/events. */
export type ControllerEvent = { id: number; type: string; data: Record<string, unknown> }
/** What a stream is sent: an event, or a `rates` event, which has no id (it is never replayed). */
export type StreamEvent = Omit<ControllerEvent, 'id'> & { id?: number }

type Subscriber = { push(event: StreamEvent): void; close(): void }
/** What a stream asks for beyond the events: the `rates` events (`/v1/events?rates=1`). */
export type SubscribeOptions = { rates?: boolean }

/**
 * Fans events out to the event stream's clients and keeps the last `capacity` of them, so that a
 * client reconnecting with Last-Event-ID gets what it missed.
 */
export class EventHub {
  readonly capacity: number
  // A ring: event `id` sits at (id - 1) % capacity. Shifting a full array moved 1024 slots per event.
  readonly #ring: ControllerEvent[] = []
  readonly #subscribers = new Set<Subscriber>()
  readonly #rates = new Set<Subscriber>()
  readonly #ratesListeners = new Set<(watchers: number) => void>()
  #lastId = 0

  constructor(capacity = 1024) {
    this.capacity = capacity
  }

  publish(type: string, data: Record<string, unknown>): void {
    const event = { id: ++this.#lastId, type, data }
    this.#ring[(event.id - 1) % this.capacity] = event
    if (this.#subscribers.size === 0) return
    for (const subscriber of this.#subscribers) {
      try {
        subscriber.push(event)
      } catch {
        this.#drop(subscriber) // a faulty subscriber loses its stream, nobody else
      }
    }
  }

  /**
   * A `rates` event to the streams that asked for rates, and to no other: without an id, never
   * kept for a replay (the next one says it all again).
   */
  pushRates(data: Record<string, unknown>): void {
    const event = { type: 'rates', data }
    for (const subscriber of this.#rates) {
      try {
        subscriber.push(event)
      } catch {
        this.#drop(subscriber)
      }
    }
  }

  /** How many streams asked for rates. */
  get ratesWatchers(): number {
    return this.#rates.size
  }

  /** Calls `listener` with the number of streams asking for rates whenever it changes. */
  onRatesWatchers(listener: (watchers: number) => void): () => void {
    this.#ratesListeners.add(listener)
    return () => this.#ratesListeners.delete(listener)
  }

  /** The buffered events after `lastId`; `complete` is false when some were already let go. */
  since(lastId: number): { events: ControllerEvent[]; complete: boolean } {
    const oldest = Math.max(1, this.#lastId - this.capacity + 1)
    const complete = lastId <= this.#lastId && lastId >= oldest - 1
    const events: ControllerEvent[] = []
    for (let id = complete ? lastId + 1 : oldest; id <= this.#lastId; id++)
      events.push(this.#ring[(id - 1) % this.capacity]!)
    return { events, complete }
  }

  get lastId() {
    return this.#lastId
  }

  /** How many streams are listening. */
  get subscribers(): number {
    return this.#subscribers.size
  }

  subscribe(subscriber: Subscriber, options: SubscribeOptions = {}): () => void {
    this.#subscribers.add(subscriber)
    if (options.rates) {
      this.#rates.add(subscriber)
      this.#ratesChanged()
    }
    return () => this.#drop(subscriber)
  }

  /** Ends every stream (shutdown). */
  close(): void {
    for (const subscriber of this.#subscribers) subscriber.close()
    this.#subscribers.clear()
    if (this.#rates.size === 0) return
    this.#rates.clear()
    this.#ratesChanged()
  }

  #drop(subscriber: Subscriber) {
    this.#subscribers.delete(subscriber)
    if (this.#rates.delete(subscriber)) this.#ratesChanged()
  }

  #ratesChanged() {
    for (const listener of this.#ratesListeners) listener(this.#rates.size)
  }
}
