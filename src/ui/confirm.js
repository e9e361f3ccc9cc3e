// @ts-check
// The apply that waits for its confirmation (GET /v1/topology's `confirmation`): a banner with its
// countdown and a Confirm button (POST /v1/topology/confirm). The countdown is this page's own
// reckoning from the seconds left when it was read; the controller's deadline is what counts.
import { post } from './read.js'

/** The events after which the confirmation is read again. */
export const CONFIRM_EVENTS = [
  'apply.confirm_pending',
  'apply.confirmed',
  'apply.expired',
  'apply.undone',
]

/**
 * @typedef {object} Confirmation
 * @property {string} apply
 * @property {string} by
 * @property {string} deadline  ISO 8601
 * @property {number} seconds_left
 * @property {string[]} processes
 */

/** `m:ss` @param {number} seconds */
export const countdown = (seconds) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id))

/**
 * The banner: `show(confirmation)` after each read of the topology; `confirmed` is called once a
 * Confirm was answered (the page reads the topology again).
 * @param {() => void} confirmed
 */
export function confirmView(confirmed) {
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let ticking
  let said = ''

  /** @param {Confirmation | undefined} confirmation */
  function show(confirmation) {
    const banner = byId('confirmation')
    clearInterval(ticking)
    ticking = undefined
    if (!confirmation) {
      delete banner.dataset.apply
      banner.replaceChildren(...(said ? [said] : []))
      banner.hidden = said === ''
      return
    }
    said = ''
    const ends = performance.now() + confirmation.seconds_left * 1000
    const left = document.createElement('strong')
    left.dataset.secondsLeft = ''
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((ends - performance.now()) / 1000))
      left.textContent = countdown(seconds)
    }
    tick()
    ticking = setInterval(tick, 1000)
    const button = document.createElement('button')
    button.type = 'button'
    button.dataset.confirm = confirmation.apply
    button.textContent = 'Confirm'
    button.addEventListener('click', async () => {
      button.disabled = true
      const response = await post('/v1/topology/confirm').catch(() => undefined)
      said = response?.ok
        ? `Apply ${confirmation.apply} confirmed: it stays.`
        : `Confirm failed: ${response ? `${response.status} ${await response.text()}` : 'no answer'}`
      confirmed()
    })
    banner.dataset.apply = confirmation.apply
    banner.replaceChildren(
      `Apply ${confirmation.apply} by ${confirmation.by} (${confirmation.processes.join(', ')}) is undone in `,
      left,
      ' unless confirmed. ',
      button,
    )
    banner.hidden = false
  }

  return { show }
}
