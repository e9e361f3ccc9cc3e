// @ts-check
// With --etcd: a banner while this controller's link to the fleet's etcd is down, from
// GET /v1/fleet/link and then each `fleet.link` event (it carries the whole state: nothing is
// polled). A controller without --etcd answers 404, and the page shows nothing of the fleet.
import { read } from './read.js'

/**
 * @typedef {object} FleetLink  GET /v1/fleet/link (src/fleet/link-status.ts)
 * @property {string} host
 * @property {string[]} endpoints
 * @property {'connecting' | 'up' | 'unreachable' | 'refused'} state
 * @property {string} since  ISO 8601
 * @property {string} [line]  what etcd refused, or why it does not answer
 */

/** The events that carry the link's state. */
export const FLEET_EVENTS = ['fleet.link']

/** @param {FleetLink} link */
const isDown = (link) => link.state === 'unreachable' || link.state === 'refused'

/** The banner's text for a link that is down. @param {FleetLink} link */
export function downText(link) {
  const since = new Date(link.since)
  const when = Number.isNaN(since.getTime()) ? '' : ` since ${since.toLocaleTimeString()}`
  const what = link.state === 'refused' ? 'etcd refuses this host' : 'etcd does not answer'
  return (
    `Fleet link down${when} (${what}): ${link.line ?? link.endpoints.join(',')}. ` +
    `This controller keeps serving its host and asks etcd again; changes made here are written ` +
    `to etcd once it takes them.`
  )
}

/** The banner (`#fleet-link`): `refresh()` reads the state, `show(link)` takes an event's. */
export function fleetLinkView() {
  // An event that comes while a read is answered is newer than the read: the read is dropped.
  let told = 0

  /** @param {FleetLink | undefined} link */
  function show(link) {
    told++
    const banner = document.getElementById('fleet-link')
    if (!banner) return
    if (link) banner.dataset.link = link.state
    else delete banner.dataset.link
    const down = link !== undefined && isDown(link)
    banner.textContent = down ? downText(link) : ''
    banner.hidden = !down
  }

  async function refresh() {
    const asked = told
    const body = /** @type {FleetLink | { error: string } | undefined} */ (
      await read('/v1/fleet/link').catch(() => undefined)
    )
    if (told !== asked) return
    // 404: no --etcd; an error answer tells nothing of the link, and leaves the banner as it is.
    if (body !== undefined && 'error' in body) return
    show(body)
  }

  return { show, refresh }
}
