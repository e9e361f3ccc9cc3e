// GET /v1/events' streams: each client's share of the hub's events, bounded.
import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { EventHub, StreamEvent } from '../observe/event-hub.ts'
import type { EventStreamOptions } from './route.ts'

/** What a client asked for: the `rates` events too, and what it missed after its Last-Event-ID. */
export type Asked = { rates: boolean; lastEventId: string | undefined }

/** Where a stream's bytes go. */
type Sink = {
  /** Sends bytes; a promise when the client has not taken the last ones yet, to wait for. */
  write(bytes: Uint8Array | string): Promise<unknown> | undefined
  /** Cuts the client off, its unsent bytes with it (an ended response would keep them). */
  drop(): void
  /** Calls `listener` once the client has gone. */
  onGone(listener: () => void): void
}

// Every stream sends an event as the same bytes: they are made once, for the first of them. The
// data is one line of JSON (JSON.stringify escapes every line break), so one `data:` field.
const encoder = new TextEncoder()
const frames = new WeakMap<StreamEvent, Uint8Array>()
const frameOf = (event: StreamEvent) => {
  let frame = frames.get(event)
  if (frame === undefined) {
    const id = event.id === undefined ? '' : `id: ${event.id}\n`
    const text = `${id}event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`
    frames.set(event, (frame = encoder.encode(text)))
  }
  return frame
}

const KEEP_ALIVE = ': keep-alive\n\n'

/**
 * The event stream: one client's events, as they come, through `sink`; resolves when the client
 * has gone, has been dropped or the hub has closed. A client that reconnects with Last-Event-ID
 * gets what it missed from the hub's buffer, at most `maxPendingPerClient` events (an
 * `events.lost` event tells it when it missed more). A client that falls `maxPendingPerClient`
 * events behind is dropped: it never slows the controller, and can catch up by reconnecting.
 */
async function follow(hub: EventHub, options: EventStreamOptions, asked: Asked, sink: Sink) {
  const { maxPendingPerClient, heartbeatMs } = options
  const { rates, lastEventId } = asked
  const pending: StreamEvent[] = []
  let lost: StreamEvent | undefined
  if (lastEventId !== undefined) {
    const replay = hub.since(/^\d+$/.test(lastEventId) ? Number(lastEventId) : -1)
    // The replay keeps the live bound: the oldest events beyond it are told as lost.
    const kept = replay.events.slice(-maxPendingPerClient)
    if (!replay.complete || kept.length < replay.events.length) {
      const data = { since: lastEventId, oldest: kept[0]?.id ?? hub.lastId + 1 }
      lost = { type: 'events.lost', data }
    }
    pending.push(...kept)
  }
  let wake: (() => void) | undefined
  let ended = false
  const end = () => {
    ended = true
    wake?.()
  }
  const unsubscribe = hub.subscribe(
    {
      push(event) {
        // Checked as the event is queued: the loop below may be stuck waiting for a client that
        // stopped reading, a wait that ends only when the client reads again.
        if (pending.length < maxPendingPerClient) pending.push(event)
        else {
          ended = true
          unsubscribe()
          sink.drop()
        }
        wake?.()
      },
      close: end,
    },
    { rates },
  )
  // Let go at once: the loop notices only once it runs again.
  sink.onGone(() => {
    unsubscribe()
    end()
  })
  try {
    if (lost) await sink.write(frameOf(lost))
    while (!ended) {
      const event = pending.shift()
      if (event) {
        const written = sink.write(frameOf(event))
        if (written) await written
        continue
      }
      const idle = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), heartbeatMs)
        wake = () => {
          clearTimeout(timer)
          resolve(false)
        }
      })
      wake = undefined
      if (idle) await sink.write(KEEP_ALIVE)
    }
  } finally {
    unsubscribe()
  }
}

/** Serves an event stream through hono's streamSSE. */
export function eventStream(c: Context, hub: EventHub, options: EventStreamOptions, asked: Asked) {
  return streamSSE(c, (stream) =>
    follow(hub, options, asked, {
      write: (bytes) => stream.write(bytes),
      drop() {
        stream.abort()
        ;(c.env as Partial<HttpBindings> | undefined)?.outgoing?.destroy()
      },
      onGone: (listener) => stream.onAbort(listener),
    }),
  )
}
