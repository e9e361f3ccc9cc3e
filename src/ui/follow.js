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
 * @property {() => void} reload  re-reads everything: events may have been missed
 */

/**
 * Follows /v1/events for as long as the page is open. Missed events are replayed to a stream that
 * reconnects (it says where it left off); the page re-reads the topology too, as it does once a
 * refused stream has a token.
 * @param {FollowPageOptions} options
 */
export function follow({ retryMs, onEvent, reload }) {
  let dropped = false
  void followEvents({
    url: '/v1/events',
    headers: authorization,
    retryMs,
    onOpen() {
      showConnection('live', 'Live: following the controller’s events.')
      if (dropped) reload()
      dropped = false
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
    onMessage({ type, data }) {
      if (EVENT_TYPES.has(type)) onEvent(type, JSON.parse(data))
    },
  })
}
