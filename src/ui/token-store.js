// @ts-check
// This tab's bearer token, shared by the page and /docs: in sessionStorage only, so it goes with
// the tab and never leaves it (no localStorage, no cookie, never in a URL).

const KEY = 'spp-ctl.token'

/** The token this tab was given, or undefined. */
export const storedToken = () => sessionStorage.getItem(KEY) ?? undefined

/** Keeps `token` for this tab (an empty one forgets it). @param {string} token */
export function storeToken(token) {
  if (token === '') sessionStorage.removeItem(KEY)
  else sessionStorage.setItem(KEY, token)
}

/** The Authorization header of a data request: none without a token (an open controller). */
export function authorization() {
  const token = storedToken()
  return /** @type {Record<string, string>} */ (token ? { Authorization: `Bearer ${token}` } : {})
}

/** What the controller accepts after `Bearer ` (a pasted line break or space is not part of it). */
export const TOKEN_SYNTAX = /^[\w.~+/-]+=*$/
