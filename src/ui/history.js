// @ts-check
// The revisions of what the controller remembers (GET /v1/topology/history), newest first, each
// with "Roll back to here": the plan from the live configuration to it is shown first, and only a
// second click sends the rollback, with the ETag of the state it was planned from. A controller
// that remembers nothing (--state-dir none) answers 404: the panel stays hidden.
import { h } from './dom.js'
import { oneAtATime, post, read } from './read.js'

/** How many revisions the panel shows. */
export const HISTORY_ROWS = 10

/**
 * @typedef {object} Revision
 * @property {number} rev
 * @property {string} time  ISO 8601
 * @property {string} by
 * @property {string} what
 * @property {number} [to]
 * @property {Record<string, number>} summary
 */
/** @typedef {{ why: string }} Step */

/** What a revision did, in a few words. @param {Revision} r */
const whatOf = (r) => (r.to === undefined ? r.what : `${r.what} to ${r.to}`)
/** @param {Revision} r */
const summaryOf = (r) =>
  Object.entries(r.summary)
    .map(([action, n]) => `${n} ${action}`)
    .join(', ') || '–'

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id))

/** The panel: `refresh()` reads the revisions again (one read at a time). */
export function historyView() {
  let kept = true
  /** @type {Revision[]} */
  let revisions = []
  /** @type {{ rev: number, steps: Step[], etag: string } | undefined} the plan shown */
  let planned
  let said = ''
  let busy = false

  const refresh = oneAtATime(async () => {
    if (!kept) return
    try {
      const rows = await read(`/v1/topology/history?limit=${HISTORY_ROWS}`)
      kept = rows !== undefined
      byId('history-panel').hidden = !Array.isArray(rows)
      if (Array.isArray(rows)) revisions = rows
      render()
    } catch (error) {
      console.warn('reading the history failed', error)
    }
  })

  /** The plan to revision `rev`, shown before anything is sent. @param {number} rev */
  async function plan(rev) {
    busy = true
    said = ''
    render()
    try {
      const document = await read(`/v1/topology/history/${rev}`)
      const response = await post('/v1/topology/plan', document)
      if (!response.ok) {
        said = `Cannot roll back to revision ${rev} (${response.status}): ${await response.text()}`
        planned = undefined
      } else {
        const { steps } = /** @type {{ steps: Step[] }} */ (await response.json())
        planned = { rev, steps, etag: response.headers.get('ETag') ?? '*' }
      }
    } catch (error) {
      said = `Cannot plan: ${error}`
    } finally {
      busy = false
      render()
    }
  }

  async function rollback() {
    if (!planned) return
    const { rev, etag } = planned
    busy = true
    render()
    try {
      const response = await post('/v1/topology/rollback', { to: rev }, { 'If-Match': etag })
      const text = await response.text()
      said = response.ok
        ? `Rolled back to revision ${rev}.`
        : `Rollback to revision ${rev} failed (${response.status}): ${text}`
    } catch (error) {
      said = `Rollback failed: ${error}`
    } finally {
      busy = false
      planned = undefined
      await refresh()
    }
  }

  /** @param {string} label @param {Record<string, string>} attributes @param {() => void} click */
  function button(label, attributes, click) {
    const element = h('button', { type: 'button', ...attributes }, [label])
    if (busy) element.setAttribute('disabled', '')
    element.addEventListener('click', click)
    return element
  }

  function planBox() {
    if (!planned) return []
    const { rev, steps } = planned
    const hook = { 'data-rollback-plan': String(rev) }
    if (steps.length === 0)
      return [
        h('div', hook, [
          h('p', {}, [`The live configuration already matches revision ${rev}.`]),
          button('Close', {}, () => ((planned = undefined), render())),
        ]),
      ]
    return [
      h('div', hook, [
        h('h3', {}, [`Rolling back to revision ${rev}: ${steps.length} steps`]),
        h(
          'ol',
          {},
          steps.map((step) => h('li', { 'data-rollback-step': String(rev) }, [step.why])),
        ),
        button(`Roll back to revision ${rev}`, { 'data-rollback-confirm': String(rev) }, () => {
          void rollback()
        }),
        button('Cancel', { 'data-rollback-cancel': String(rev) }, () => {
          planned = undefined
          render()
        }),
      ]),
    ]
  }

  function render() {
    const rows = revisions.map((r) =>
      h('tr', { 'data-revision': String(r.rev), 'data-what': r.what }, [
        h('td', {}, [String(r.rev)]),
        h('td', {}, [h('time', { datetime: r.time, title: r.time }, [localTime(r.time)])]),
        h('td', {}, [r.by]),
        h('td', {}, [whatOf(r)]),
        h('td', {}, [summaryOf(r)]),
        h('td', {}, [
          button('Roll back to here', { 'data-rollback': String(r.rev) }, () => void plan(r.rev)),
        ]),
      ]),
    )
    document.querySelector('#history tbody')?.replaceChildren(...rows)
    const result = said === '' ? [] : [h('p', { 'data-rollback-result': '' }, [said])]
    byId('rollback').replaceChildren(...planBox(), ...result)
  }

  return { refresh }
}

/** @param {string} iso */
const localTime = (iso) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' })
