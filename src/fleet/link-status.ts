// Whether the controller's link to the fleet works, as GET /v1/fleet/link answers and the
// `fleet.link` event tells it: the page's banner and REST clients read it, never etcd.
import * as v from 'valibot'
import type { EventHub } from '../observe/event-hub.ts'
import type { Down } from './reachability.ts'

/** GET /v1/fleet/link, and the data of each `fleet.link` event. */
export const FleetLinkDocument = v.object({
  host: v.pipe(v.string(), v.description("this host's name in the fleet (--host-name)")),
  endpoints: v.pipe(v.array(v.string()), v.description("etcd's URLs (--etcd)")),
  state: v.pipe(
    v.picklist(['connecting', 'up', 'unreachable', 'refused']),
    v.description(
      'connecting: etcd has not answered yet; up: its last call went through; unreachable: etcd does not answer; refused: etcd refused this host (a TLS handshake, authentication, a permission). Down, the controller keeps serving its host and asks etcd again',
    ),
  ),
  since: v.pipe(
    v.string(),
    v.description('when the link came up or went down (ISO 8601); connecting: since the start'),
  ),
  line: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'unreachable or refused: one line naming the endpoint and what etcd refused, or why it does not answer, as the log says it (never a password or a key)',
      ),
    ),
  ),
})
export type FleetLinkDocument = v.InferOutput<typeof FleetLinkDocument>

/** The link's state as the API tells it; `set` by the link, each change a `fleet.link` event. */
export type FleetLinkStatus = {
  current(): FleetLinkDocument
  /** The link works (true) or not (false, and why). */
  set(up: boolean, why?: Down): void
}

/** What a link that is down says: the refusal's own line, or why etcd does not answer. */
export const downLine = (why: Down, endpoints: string[]) =>
  why.kind === 'refused' ? why.line : `cannot reach etcd at ${endpoints.join(',')}: ${why.reason}`

/** Starts as `connecting`: the link's first outcome tells which it is. */
export function fleetLinkStatus(
  { host, endpoints }: { host: string; endpoints: string[] },
  hub: EventHub,
  now: () => Date = () => new Date(),
): FleetLinkStatus {
  let document: FleetLinkDocument = {
    host,
    endpoints,
    state: 'connecting',
    since: now().toISOString(),
  }
  return {
    current: () => document,
    set(up, why) {
      const state = up ? 'up' : (why?.kind ?? 'unreachable')
      const line = up || !why ? undefined : downLine(why, endpoints)
      if (state === document.state && line === document.line) return
      // Down for another reason is still down since it went down.
      const wasDown = document.state === 'unreachable' || document.state === 'refused'
      const since = !up && wasDown ? document.since : now().toISOString()
      document = { host, endpoints, state, since, ...(line === undefined ? {} : { line }) }
      hub.publish('fleet.link', document)
    },
  }
}
