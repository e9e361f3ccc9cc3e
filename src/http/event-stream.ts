// GET /v1/events' streams: each client's share of the hub's events, bounded, written to node's
// response itself where the app runs on node, else through hono's streamSSE.
import type { ServerResponse } from 'node:http'
import type { HttpBindings } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { EventHub, StreamEvent } from '../observe/event-hub.ts'
import type { EventStreamOptions } from './route.ts'

/** What a client asked for: the `rates` events too, and what it missed after its Last-Event-ID. */
export type Asked = { rates: boolean; lastEventId: string | undefined }

/** Where a stream's bytes go: node's response, or hono's stream. */
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

/**
 * Serves an event stream. Under @hono/node-server its head and frames are written to node's
 * response itself: a web stream per client, which hono's streamSSE is and @hono/node-server pipes
 * into node's response, costs each client's event about 2.5 times node's own write of it. Without
 * node under the app (app.request), through streamSSE.
 */
export function eventStream(c: Context, hub: EventHub, options: EventStreamOptions, asked: Asked) {
  const run = (sink: Sink) => follow(hub, options, asked, sink)
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
  if (outgoing) return toNode(c, outgoing, run)
  return streamSSE(c, (stream) =>
    run({
      write: (bytes) => stream.write(bytes),
      drop: () => stream.abort(),
      onGone: (listener) => stream.onAbort(listener),
    }),
  )
}

/**
 * The stream on node's response: the head streamSSE's answer would have (what is set on node's
 * response, such as X-Request-Id, then streamSSE's four, sorted as hono's Headers gave them),
 * then each frame as one write, waiting for 'drain' when node's write says so.
 * RESPONSE_ALREADY_SENT tells hono and @hono/node-server that it is answered: the middleware
 * after the route see a 200 (the log line, the metrics), and @hono/node-server writes nothing.
 */
function toNode(c: Context, outgoing: ServerResponse, run: (sink: Sink) => Promise<void>) {
  outgoing.writeHead(200, {
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'content-type': 'text/event-stream',
    'transfer-encoding': 'chunked',
  })
  // A HEAD has its head, and nothing to follow.
  if (c.req.method === 'HEAD') outgoing.end()
  else {
    outgoing.flushHeaders()
    const sink: Sink = {
      write(bytes) {
        if (outgoing.write(bytes) || outgoing.destroyed) return undefined
        return new Promise((resolve) => {
          const done = () => {
            outgoing.off('drain', done).off('close', done)
            resolve(undefined)
          }
          outgoing.on('drain', done).on('close', done)
        })
      },
      drop: () => outgoing.destroy(),
      onGone(listener) {
        if (outgoing.destroyed) listener()
        else outgoing.once('close', listener)
      },
    }
    // Ended when the hub closes (the controller stops); a client gone or dropped has no response.
    void run(sink).then(
      () => {
        if (!outgoing.destroyed) outgoing.end()
      },
      () => outgoing.destroy(),
    )
  }
  // As bodilessHeads: hono would merge the headers it holds into a new answer otherwise.
  c.res = undefined
  c.res = RESPONSE_ALREADY_SENT
  return c.res
}
