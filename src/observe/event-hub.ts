// The event hub behind GET /v1/events: fan-out to streams and a replay buffer.
/** One thing the controller learned, as sent on GET /v1/events. */
export type ControllerEvent = { id: number; type: string; data: Record<string, unknown> }

type Subscriber = { push(event: ControllerEvent): void; close(): void }

/**
 * Fans events out to the event stream's clients and keeps the last `capacity` of them, so that a
 * client reconnecting with Last-Event-ID gets what it missed.
 */
export class EventHub {
  readonly capacity: number
  // A ring: event `id` sits at (id - 1) % capacity. Shifting a full array moved 1024 slots per event.
  readonly #ring: ControllerEvent[] = []
  readonly #subscribers = new Set<Subscriber>()
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
        this.#subscribers.delete(subscriber) // a faulty subscriber loses its stream, nobody else
      }
    }
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

  subscribe(subscriber: Subscriber): () => void {
    this.#subscribers.add(subscriber)
    return () => this.#subscribers.delete(subscriber)
  }

  /** Ends every stream (shutdown). */
  close(): void {
    for (const subscriber of this.#subscribers) subscriber.close()
    this.#subscribers.clear()
  }
}
