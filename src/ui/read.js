// @ts-check
// The page's reads of the API: with this tab's token, waiting for another when it is refused.
import { askForToken } from './token-form.js'
import { authorization } from './token-store.js'

/** @param {string} url @returns {Promise<object | undefined>} undefined when not connected (404) */
export async function read(url) {
  return (await readAged(url)).body
}

/**
 * As `read`, with the age (ms) of the status reads the answer shows: the controller shares a
 * read among its readers for a while (--status-max-age), and says how old it is.
 * @param {string} url @returns {Promise<{ body: object | undefined, ageMs: number }>}
 */
export async function readAged(url) {
  for (;;) {
    const headers = authorization()
    const response = await fetch(url, { headers })
    if (response.status === 401 || response.status === 403) {
      await askForToken(response.status, await response.text(), headers.Authorization)
      continue
    }
    const ageMs = Number(response.headers.get('X-Status-Age-Ms') ?? 0) || 0
    if (response.status === 404) return { body: undefined, ageMs }
    if (!response.ok) return { body: { error: await response.text() }, ageMs }
    return { body: /** @type {object} */ (await response.json()), ageMs }
  }
}
