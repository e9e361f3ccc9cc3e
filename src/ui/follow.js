// @ts-check
// The page's event stream: the events it follows, the connection indicator, and a token asked
// for when the controller refuses the stream.
import { CONFIRM_EVENTS } from './confirm.js'
import { DRIFT_EVENTS } from './drift.js'
import { followEvents } from './event-stream.js'
import { askForToken } from './token-form.js'
import { authorization } from './token-store.js'

/** The events that change what the page shows (apply progress, for one, does not). */
const EVENT_TYPES = new Set([
  'process.identified',
  'process.replaced',
  'process.disconnected',
  'nfv.status',
  'port.added',
  'port.deleted',
  'patch.set',
  'patches.reset',
  'component.started',
  'component.stopped',
  'port.attached',
  'port.detached',
  'classifier.added',
  'classifier.removed',
  'command.failed',
  'primary.stats.cleared',
  'events.lost',
  // a change is in the journal (its process's event comes before it is durable)
  'journal.entry',
  ...DRIFT_EVENTS,
  // an apply waits for its confirmation, or no longer
  ...CONFIRM_EVENTS,
])

/** @param {'connecting' | 'live' | 'reconnecting' | 'refused'} state @param {string} text */
function showConnection(state, text) {
  const element = document.getElementById('connection')
  if (!element) return
  element.dataset.connection = state
  element.textContent = text
}

/**
 * @typedef {object} FollowPageOptions
 * @property {number} retryMs  the pause before reconnecting
 * @property {(type: string, data: object) => void} onEvent  each event of EVENT_TYPES
 * @property {(data: object) => void} onRates  each `rates` event: the paths, their rates and verdicts
 * @property {() => boolean} wantsRates  whether to ask for them now (the page: while it is
 *   visible, from a controller that pushes them)
 * @property {(reason: string) => void} ratesRefused  the stream that asked for them was refused
 * @property {() => void} reload  re-reads everything: events may have been missed
 */

/** The event stream, with the `rates` events or without. @param {boolean} rates */
export const eventsUrl = (rates) => (rates ? '/v1/events?rates=1' : '/v1/events')

/**
 * Follows /v1/events for as long as the page is open, asking for the rates (`?rates=1`) only
 * while `wantsRates()`: when that changes (the page is hidden, or shown), the stream is followed
 * anew from where it left off. Missed events are replayed to a stream that reconnects (it says
 * where it left off); the page re-reads the topology too when it could not say, as it does once a
 * refused stream has a token.
 * @param {FollowPageOptions} options
 * @returns {{ sync(): void }} `sync()`: asks for rates, or stops, as `wantsRates()` now says
 */
export function follow({ retryMs, onEvent, onRates, wantsRates, ratesRefused, reload }) {
  let dropped = false
  let switched = false
  const stream = followEvents({
    url: () => eventsUrl(wantsRates()),
    headers: authorization,
    retryMs,
    onOpen({ resumed }) {
      showConnection('live', 'Live: following the controller’s events.')
      if (dropped || (switched && !resumed)) reload()
      dropped = switched = false
    },
    onDrop() {
      dropped = true
      showConnection('reconnecting', 'Event stream lost: reconnecting…')
    },
    onRefused(status, reason, sent) {
      dropped = true
      showConnection('refused', status === 401 ? 'A token is needed.' : 'The token lacks a scope.')
      return askForToken(status, reason, sent)
    },
    onFailed(url, status, reason) {
      // Not a controller that takes `rates` after all: the next connection asks without.
      if (url === eventsUrl(true) && status >= 400 && status < 500)
        ratesRefused(`${status} ${reason}`.trim())
    },
    onMessage({ type, data }) {
      if (type === 'rates') onRates(JSON.parse(data))
      else if (EVENT_TYPES.has(type)) onEvent(type, JSON.parse(data))
    },
  })
  const sync = () => {
    if (stream.sync()) switched = true
  }
  document.addEventListener('visibilitychange', sync)
  return { sync }
}
