// @ts-check
// The panel of the last changes: GET /v1/journal, newest first, read again after every event. A
// controller that keeps no journal (--state-dir none) answers 404: the panel stays hidden.
import { h } from './dom.js'
import { oneAtATime, read } from './read.js'

/** How many changes the panel shows. */
export const JOURNAL_ROWS = 20

/**
 * @typedef {object} JournalEntry
 * @property {number} id
 * @property {string} time  ISO 8601
 * @property {string} by
 * @property {string} method
 * @property {string} path
 * @property {number} status
 * @property {string[]} processes
 * @property {{ line: string, outcome: unknown }[]} commands
 */

/** A command as the panel shows it: a failed one with its error code. @param {JournalEntry['commands'][number]} c */
function command({ line, outcome }) {
  if (outcome === 'ok') return h('li', {}, [line])
  const error = /** @type {{ error?: unknown } | null} */ (outcome)?.error
  const code = typeof error === 'string' ? error : 'failed'
  return h('li', { 'data-failed': code }, [`${line} (${code})`])
}

/** The panel's rows, newest first. @param {JournalEntry[]} entries */
export function journalRows(entries) {
  return entries.map((e) =>
    h('tr', { 'data-journal': String(e.id), 'data-by': e.by }, [
      h('td', {}, [h('time', { datetime: e.time, title: e.time }, [localTime(e.time)])]),
      h('td', {}, [e.by]),
      h('td', { 'data-status': String(e.status) }, [String(e.status)]),
      h('td', {}, [h('code', {}, [`${e.method} ${e.path}`])]),
      h('td', {}, [e.processes.join(', ')]),
      h('td', {}, [h('ul', {}, e.commands.map(command))]),
    ]),
  )
}

/** @param {string} iso */
const localTime = (iso) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' })

let kept = true

/**
 * Reads the last changes into the panel, one read at a time (a call meanwhile asks for one more).
 * Once the controller has said it keeps no journal, it reads no more.
 */
export const refreshJournal = oneAtATime(async () => {
  if (!kept) return
  try {
    const entries = await read(`/v1/journal?limit=${JOURNAL_ROWS}`)
    const panel = /** @type {HTMLElement} */ (document.getElementById('journal-panel'))
    kept = entries !== undefined
    panel.hidden = !Array.isArray(entries)
    if (Array.isArray(entries))
      document.querySelector('#journal tbody')?.replaceChildren(...journalRows(entries))
  } catch (error) {
    console.warn('reading the journal failed', error)
  }
})
