// @ts-check
// The page's requests to the API: with this tab's token, waiting for another when it is refused.
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
  const response = await authorized(url)
  const ageMs = Number(response.headers.get('X-Status-Age-Ms') ?? 0) || 0
  if (response.status === 404) return { body: undefined, ageMs }
  if (!response.ok) return { body: { error: await response.text() }, ageMs }
  return { body: /** @type {object} */ (await response.json()), ageMs }
}

/**
 * A POST with this tab's token (asked for when refused), JSON body.
 * @param {string} url @param {unknown} [body] @param {Record<string, string>} [more]
 */
export function post(url, body, more = {}) {
  const text = body === undefined ? undefined : JSON.stringify(body)
  return authorized(url, { method: 'POST', body: text }, more)
}

/**
 * `fetch` with this tab's token; refused (401, 403), it waits for another and asks again.
 * @param {string} url @param {RequestInit} [init] @param {Record<string, string>} [more]
 */
async function authorized(url, init = {}, more = {}) {
  for (;;) {
    const headers = { ...authorization(), ...more }
    const response = await fetch(url, { ...init, headers })
    if (response.status !== 401 && response.status !== 403) return response
    await askForToken(response.status, await response.text(), headers.Authorization)
  }
}

/**
 * `work` run one at a time: a call while it runs asks for one more run after it (however many
 * calls came meanwhile), so that the last call always sees what was there when it was made.
 * @param {() => Promise<void>} work @returns {() => Promise<void>}
 */
export function oneAtATime(work) {
  let running = false
  let again = false
  return async () => {
    if (running) return void (again = true)
    running = true
    try {
      do {
        again = false
        await work()
      } while (again)
    } finally {
      running = false
    }
  }
}
