import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { ControllerEvent, EventHub } from '../events/event-hub.ts'

export type EventStreamOptions = { maxPendingPerClient: number; heartbeatMs: number }

/**
 * GET /v1/events: Server-Sent Events of what the controller learns. A client that reconnects with
 * Last-Event-ID gets what it missed from the hub's buffer (or an `events.lost` event when the
 * buffer no longer holds it). A client that falls `maxPendingPerClient` events behind is dropped:
 * it never slows the controller, and can catch up by reconnecting.
 */
export const eventRoutes = (
  hub: EventHub,
  { maxPendingPerClient, heartbeatMs }: EventStreamOptions,
) =>
  new Hono().get('/events', (c) => {
    const lastEventId = c.req.header('Last-Event-ID')
    return streamSSE(c, async (stream) => {
      const pending: ControllerEvent[] = []
      let lost: { since: string } | undefined
      if (lastEventId !== undefined) {
        const replay = hub.since(/^\d+$/.test(lastEventId) ? Number(lastEventId) : -1)
        if (!replay.complete) lost = { since: lastEventId }
        pending.push(...replay.events)
      }
      let wake: (() => void) | undefined
      let ended = false
      let overflow = false
      const unsubscribe = hub.subscribe({
        push(event) {
          if (pending.length >= maxPendingPerClient) overflow = true
          else pending.push(event)
          wake?.()
        },
        close() {
          ended = true
          wake?.()
        },
      })
      stream.onAbort(() => {
        ended = true
        wake?.()
      })
      try {
        if (lost)
          await stream.writeSSE({
            event: 'events.lost',
            data: JSON.stringify({ ...lost, oldest: pending[0]?.id ?? hub.lastId + 1 }),
          })
        while (!ended && !overflow) {
          const event = pending.shift()
          if (event) {
            await stream.writeSSE({
              id: String(event.id),
              event: event.type,
              data: JSON.stringify(event.data),
            })
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
  })
