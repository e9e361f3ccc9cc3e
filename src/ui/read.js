// @ts-check
// The page's reads of the API: with this tab's token, waiting for another when it is refused.
import { askForToken } from './token-form.js'
import { authorization } from './token-store.js'

/** @param {string} url @returns {Promise<object | undefined>} undefined when not connected (404) */
export async function read(url) {
  for (;;) {
    const headers = authorization()
    const response = await fetch(url, { headers })
    if (response.status === 401 || response.status === 403) {
      await askForToken(response.status, await response.text(), headers.Authorization)
      continue
    }
    if (response.status === 404) return undefined
    if (!response.ok) return { error: await response.text() }
    return /** @type {object} */ (await response.json())
  }
}
