// GET /v1/events: the event stream, bounded per client.
import type { Context } from 'hono'
import * as v from 'valibot'
import { check } from '../../requests/check.ts'
import { eventStream } from '../event-stream.ts'
import type { Deps, Route } from '../route.ts'
import { queryOf, requestHeader } from '../validate.ts'

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

/**
 * GET /v1/events: Server-Sent Events of what the controller learns, replayed after Last-Event-ID
 * and bounded per client (src/http/event-stream.ts).
 */
function followEvents(c: Context, { hub, events }: Deps) {
  const { rates = false } = check(EventParams, queryOf(c), 'query')
  return eventStream(c, hub, events, { rates, lastEventId: requestHeader(c, 'last-event-id') })
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
    handle: followEvents,
  },
]
