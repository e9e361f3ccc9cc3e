// GET /v1/events: the event stream, bounded per client.
import type { HttpBindings } from '@hono/node-server'
import { streamSSE } from 'hono/streaming'
import type { Context } from 'hono'
import * as v from 'valibot'
import type { StreamEvent } from '../../observe/event-hub.ts'
import { check } from '../../requests/check.ts'
import type { Deps, Route } from '../route.ts'
import { queryOf } from '../validate.ts'

/** The query: `rates=1` asks for the `rates` events as well; any other parameter is refused. */
export const EventParams = v.strictObject(
  {
    rates: v.optional(
      v.pipe(
        v.picklist(['0', '1'], '0 or 1, given once'),
        v.description(
          "1: a `rates` event (no id, never replayed) after each read of the counters, about once a second (max(1 s, --status-max-age)): every path's hops with their rates and verdicts, as GET /v1/topology/paths; the counters are read only while a stream asks",
        ),
        v.transform((text) => text === '1'),
      ),
    ),
  },
  'not a parameter of GET /v1/events (rates)',
)

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

/**
 * GET /v1/events: Server-Sent Events of what the controller learns. A client that reconnects with
 * Last-Event-ID gets what it missed from the hub's buffer, at most `maxPendingPerClient` events
 * (an `events.lost` event tells it when it missed more). A client that falls `maxPendingPerClient`
 * events behind is dropped: it never slows the controller, and can catch up by reconnecting.
 */
function eventStream(c: Context, { hub, events }: Deps) {
  const { maxPendingPerClient, heartbeatMs } = events
  const { rates = false } = check(EventParams, queryOf(c), 'query')
  const lastEventId = c.req.header('Last-Event-ID')
  return streamSSE(c, async (stream) => {
    const pending: StreamEvent[] = []
    let lost: { since: string; oldest: number } | undefined
    if (lastEventId !== undefined) {
      const replay = hub.since(/^\d+$/.test(lastEventId) ? Number(lastEventId) : -1)
      // The replay keeps the live bound: the oldest events beyond it are told as lost.
      const kept = replay.events.slice(-maxPendingPerClient)
      if (!replay.complete || kept.length < replay.events.length)
        lost = { since: lastEventId, oldest: kept[0]?.id ?? hub.lastId + 1 }
      pending.push(...kept)
    }
    let wake: (() => void) | undefined
    let ended = false
    const unsubscribe = hub.subscribe(
      {
        push(event) {
          // Checked as the event is queued: the loop below may be stuck in a write to a client
          // that stopped reading, a write that returns only when the client reads again.
          if (pending.length < maxPendingPerClient) pending.push(event)
          else {
            ended = true
            unsubscribe()
            stream.abort()
            // The socket's unsent bytes go with it (an ended response would keep them).
            ;(c.env as Partial<HttpBindings> | undefined)?.outgoing?.destroy()
          }
          wake?.()
        },
        close() {
          ended = true
          wake?.()
        },
      },
      { rates },
    )
    stream.onAbort(() => {
      ended = true
      wake?.()
    })
    try {
      if (lost) await stream.writeSSE({ event: 'events.lost', data: JSON.stringify(lost) })
      while (!ended) {
        const event = pending.shift()
        if (event) {
          await stream.write(frameOf(event))
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
        if (idle) await stream.write(': keep-alive\n\n')
      }
    } finally {
      unsubscribe()
    }
  })
}

/** GET /v1/events */
export const eventRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/events',
    summary:
      'Server-Sent Events of what the controller learns (Last-Event-ID replays); with rates=1, the rates and verdicts of every hop after each read of the counters',
    query: EventParams,
    success: 'text/event-stream',
    handle: eventStream,
  },
]
