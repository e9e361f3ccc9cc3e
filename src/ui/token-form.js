// @ts-check
// The token field: shown when the controller refuses a request (401: no token or an unknown one;
// 403: one of too small a scope) with the controller's reason. A token entered goes to
// sessionStorage (token-store.js) and every request waiting for one is tried again with it.
import { authorization, storedToken, storeToken, TOKEN_SYNTAX } from './token-store.js'

/** @type {Promise<void> | undefined} */
let next
/** @type {(() => void) | undefined} */
let entered

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id))

/**
 * Shows the field with the controller's reason; resolves once a token has been entered, at once
 * if one was entered after the refused request went out (`sent`: its Authorization header).
 * @param {401 | 403} status @param {string} reason @param {string | undefined} sent
 */
export function askForToken(status, reason, sent) {
  if (authorization().Authorization !== sent) return Promise.resolve()
  const form = byId('token')
  form.hidden = false
  form.dataset.auth = status === 401 ? 'needed' : 'forbidden'
  byId('token-reason').textContent =
    status === 403
      ? `This token lacks the scope needed: ${reason}`
      : `${sent ? 'The token was refused' : 'The controller needs a token'}: ${reason}`
  return (next ??= new Promise((resolve) => (entered = resolve)))
}

/** Wires the field and the button that forgets the token (the page starts over without it). */
export function setUpTokenForm() {
  const form = /** @type {HTMLFormElement} */ (byId('token'))
  const input = /** @type {HTMLInputElement} */ (byId('token-input'))
  const forget = byId('forget-token')
  forget.hidden = storedToken() === undefined
  form.addEventListener('submit', (event) => {
    event.preventDefault() // the field has no name either: it can never become part of a URL
    const token = input.value.trim()
    if (!TOKEN_SYNTAX.test(token)) {
      byId('token-reason').textContent =
        'Not a token: letters, digits and - . _ ~ + / (spp-ctl auth add prints one).'
      return
    }
    input.value = ''
    storeToken(token)
    form.hidden = true
    form.dataset.auth = 'entered'
    forget.hidden = false
    entered?.()
    next = entered = undefined
  })
  forget.addEventListener('click', () => {
    storeToken('')
    location.reload()
  })
}
