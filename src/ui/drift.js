// @ts-check
// Drift on the page: a process that differs from what the controller remembers (GET
// /v1/topology/drift) is marked, with the steps that would bring it back and a Restore button.
import { h } from './dom.js'
import { SECTIONS } from './graph.js'
import { read } from './read.js'
import { askForToken } from './token-form.js'
import { authorization } from './token-store.js'

/** The events of drift and restores the page follows (a restore ends in restore.done/failed). */
export const DRIFT_EVENTS = ['drift.detected', 'restore.done', 'restore.failed']
/** Events of the page's own after which the drift is read again too. */
const ALSO = new Set(['process.identified', 'process.disconnected'])

/** @typedef {{ steps: { why: string }[] } | { refused: { field: string, reason: string } }} Report */

/** @param {Record<string, Record<string, Report>>} document @returns {Map<string, Report>} by `vf:2` */
function reportsOf(document) {
  const out = new Map()
  for (const [section, kind] of SECTIONS)
    for (const [id, report] of Object.entries(document[section] ?? {}))
      out.set(`${kind}:${id}`, report)
  return out
}

/** @param {Report} report */
const drifts = (report) => 'refused' in report || report.steps.length > 0

/**
 * POST /v1/topology/restore of one process, with this tab's token (asked for when refused).
 * @param {string} id  `vf:2`
 */
async function askRestore(id) {
  for (;;) {
    const headers = authorization()
    const body = JSON.stringify({ process: id })
    const response = await fetch('/v1/topology/restore', { method: 'POST', headers, body })
    if (response.status !== 401 && response.status !== 403) return response
    await askForToken(response.status, await response.text(), headers.Authorization)
  }
}

/**
 * The page's drift: `update()` reads it (one read at a time; asked meanwhile, once more after),
 * then calls `changed`; `mark(container)` marks the sections of the processes that drift.
 * @param {() => void} changed
 */
export function driftView(changed) {
  /** @type {Map<string, Report>} */
  let reports = new Map()
  /** @type {Map<string, string>} what the last Restore of a process answered, until it is in sync */
  const results = new Map()
  const restoring = new Set()
  let reading = false
  let again = false

  async function update() {
    if (reading) return void (again = true)
    reading = true
    try {
      do {
        again = false
        const drift = /** @type {Record<string, any> | undefined} */ (
          await read('/v1/topology/drift')
        )
        reports = drift && !('error' in drift) ? reportsOf(drift) : new Map()
        for (const id of results.keys())
          if (!drifts(reports.get(id) ?? { steps: [] })) results.delete(id)
        changed()
      } while (again)
    } catch (error) {
      console.warn('reading the drift failed', error)
    } finally {
      reading = false
    }
  }

  /** @param {string} id */
  async function restore(id) {
    restoring.add(id)
    changed()
    try {
      const response = await askRestore(id)
      const text = await response.text()
      results.set(id, response.ok ? 'Restored.' : `Restore failed (${response.status}): ${text}`)
    } catch (error) {
      results.set(id, `Restore failed: ${error}`)
    } finally {
      restoring.delete(id)
      await update()
    }
  }

  /** @param {string} id @param {Report} report */
  function block(id, report) {
    const result = results.get(id)
    const said = result === undefined ? [] : [h('p', { 'data-restore-result': id }, [result])]
    if ('refused' in report)
      return h('div', { class: 'drift' }, [
        h('h4', {}, ['Differs from what is remembered, and cannot be restored']),
        h('p', { 'data-drift-refused': id }, [`${report.refused.field}: ${report.refused.reason}`]),
        ...said,
      ])
    const button = h('button', { type: 'button', 'data-restore': id }, [
      restoring.has(id) ? 'Restoring…' : 'Restore',
    ])
    if (restoring.has(id)) button.setAttribute('disabled', '')
    button.addEventListener('click', () => void restore(id))
    return h('div', { class: 'drift' }, [
      h('h4', {}, [`Differs from what is remembered: ${report.steps.length} steps to restore`]),
      h(
        'ol',
        {},
        report.steps.map((step) => h('li', { 'data-drift-step': id }, [step.why])),
      ),
      button,
      ...said,
    ])
  }

  /** @param {Element | null} container the processes' sections (`[data-process]`) */
  function mark(container) {
    for (const section of container?.querySelectorAll('section[data-process]') ?? []) {
      const id = section.getAttribute('data-process') ?? ''
      const report = reports.get(id)
      if (!report || !drifts(report)) continue
      const mark = 'refused' in report ? 'refused' : String(report.steps.length)
      section.setAttribute('data-drift', mark)
      section.append(block(id, report))
    }
  }

  return {
    update,
    mark,
    /** Reads the drift again if `type` may change it; true when the event is about drift only. */
    heard(/** @type {string} */ type) {
      const only = DRIFT_EVENTS.includes(type)
      if (only || ALSO.has(type)) void update()
      return only
    },
  }
}
