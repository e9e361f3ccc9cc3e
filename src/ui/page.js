// @ts-check
// The live topology page: loads /v1/topology, then follows /v1/events and refetches what changed;
// the primary's counters, which change without events, are read once a period while it is visible.
// With --auth-file every request carries this tab's token, asked for when the controller refuses.
// @ts-expect-error served by the controller from node_modules (see src/http/ui-routes.ts)
import cytoscape from './vendor/cytoscape.mjs'
// @ts-expect-error served by the controller from node_modules (see src/http/ui-routes.ts)
import dagre from './vendor/cytoscape-dagre.mjs'
import { CONFIRM_EVENTS, confirmView } from './confirm.js'
import { counterRows } from './counters.js'
import { driftView } from './drift.js'
import { processSections } from './dom.js'
import { follow } from './follow.js'
import { historyView } from './history.js'
import { refreshJournal } from './journal.js'
import { everyWhileVisible } from './poll.js'
import { record } from './rates.js'
import { read, readAged } from './read.js'
import { setUpTokenForm } from './token-form.js'
import { isUnreadable, SECTIONS, structureKey, toElements } from './graph.js'
import { GRAPH_STYLE } from './graph-style.js'

/** @typedef {import('./graph.js').TopologyDocument} TopologyDocument */

// One read of the primary's status per period per page (and the controller shares one command
// among the pages whose reads meet): packets per second need successive reads, nothing else does.
const COUNTERS_EVERY_MS = 2000
// The journal is read again after every event; this often too, for changes that publish none.
const JOURNAL_EVERY_MS = 60_000
const SECTION_OF = /** @type {Record<string, 'nfvs' | 'vfs' | 'mirrors' | 'pcaps'>} */ ({
  nfv: 'nfvs',
  vf: 'vfs',
  mirror: 'mirrors',
  pcap: 'pcaps',
})

cytoscape.use(dagre)
const cy = cytoscape({
  container: document.getElementById('graph'),
  style: GRAPH_STYLE,
  elements: [],
})
/** @type {TopologyDocument} */
let doc = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
let layoutKey = ''
/** @type {import('./rates.js').History} */
const history = new Map()
let lastRead = 0
const drift = driftView(render) // processes that differ from what is remembered
const revisions = historyView() // what was remembered, and going back to it
const confirmation = confirmView(() => void reloadAll()) // an apply that waits for its confirmation

/**
 * Keeps the counters of a read of the primary's status, for the rates: at the time it was read,
 * `ageMs` before it was answered (the controller shares reads among its readers).
 * @param {number} ageMs
 */
function recordCounters(ageMs) {
  if (isUnreadable(doc.primary)) return
  lastRead = performance.now() - ageMs
  record(history, lastRead, /** @type {any} */ (doc.primary))
}

/** Brings graph and text to the document; the layout runs only when elements come or go. */
function render() {
  const elements = toElements(doc)
  const wanted = new Set(elements.map((e) => e.data.id))
  cy.batch(() => {
    cy.elements()
      .filter((/** @type {any} */ el) => !wanted.has(el.id()))
      .remove()
    for (const element of elements) {
      const existing = cy.getElementById(element.data.id)
      if (existing.empty()) cy.add(element)
      else existing.data(element.data).classes(element.classes)
    }
  })
  // for tests: the port nodes drawn, as the graph holds them
  const graph = document.getElementById('graph')
  if (graph)
    graph.dataset.ports = cy
      .nodes('.port')
      .map((/** @type {any} */ n) => n.data('label'))
      .sort()
      .join(' ')
  const key = structureKey(elements)
  if (key !== layoutKey) {
    layoutKey = key
    cy.layout({ name: 'dagre', rankDir: 'LR', nodeSep: 25, rankSep: 90, animate: false }).run()
    // counted for tests: a change that adds or removes nothing must not move the picture
    if (graph) graph.dataset.layouts = String(Number(graph.dataset.layouts ?? 0) + 1)
  }
  document.getElementById('processes')?.replaceChildren(...processSections(doc, SECTIONS))
  drift.mark(document.getElementById('processes'))
  const counters = document.querySelector('#counters tbody')
  counters?.replaceChildren(...counterRows(/** @type {any} */ (doc.primary), history, lastRead))
}

// One read per process at a time: events that arrive meanwhile ask for one more read, not many.
/** @type {Map<string, { again: boolean }>} */
const reading = new Map()
/** @param {string} key @param {() => Promise<void>} readInto */
async function refresh(key, readInto) {
  const current = reading.get(key)
  if (current) return void (current.again = true)
  const state = { again: true }
  reading.set(key, state)
  try {
    while (state.again) {
      state.again = false
      await readInto()
      render()
    }
  } catch (error) {
    console.warn(`reading ${key} failed`, error)
  } finally {
    reading.delete(key)
  }
}

const refreshPrimary = () =>
  refresh('primary', async () => {
    const { body, ageMs } = await readAged('/v1/primary/status')
    doc.primary = /** @type {any} */ (body ?? {})
    recordCounters(ageMs)
  })

/** @param {string} kind @param {number} clientId */
const refreshProcess = (kind, clientId) => {
  const section = SECTION_OF[kind]
  if (!section) return
  return refresh(`${kind}:${clientId}`, async () => {
    const state = await read(`/v1/${section}/${clientId}`)
    // `pcaps` is absent from a document until a (2020) pcap connects.
    const states = (doc[section] ??= {})
    if (state === undefined) delete states[String(clientId)]
    else states[String(clientId)] = /** @type {any} */ (state)
  })
}

const reloadAll = () =>
  refresh('all', async () => {
    const { body, ageMs } = await readAged('/v1/topology')
    doc = /** @type {TopologyDocument} */ (body)
    confirmation.show(/** @type {any} */ (doc).confirmation)
    recordCounters(ageMs) // the age of its oldest read: the primary's is at most that
    void drift.update()
  })

/** @param {string} type @param {{ kind?: string, 'client-id'?: number }} data */
function onEvent(type, data) {
  void refreshJournal()
  if (type === 'events.lost') return void reloadAll()
  if (type === 'journal.entry') return void revisions.refresh() // a change: perhaps a revision
  if (CONFIRM_EVENTS.includes(type)) return void reloadAll()
  if (drift.heard(type)) return // a drift or restore event: nothing else to read
  if (data.kind === 'primary') {
    if (type === 'process.disconnected') {
      doc.primary = {}
      history.clear() // a primary that comes back counts from zero
      return render()
    }
    return void refreshPrimary()
  }
  const section = data.kind && SECTION_OF[data.kind]
  if (!section || data['client-id'] === undefined) return
  if (type === 'process.disconnected') {
    delete doc[section]?.[String(data['client-id'])]
    return render()
  }
  void refreshProcess(data.kind ?? '', data['client-id'])
}

setUpTokenForm()
follow({ retryMs: COUNTERS_EVERY_MS, onEvent, reload: reloadAll })
await reloadAll()
void refreshJournal()
void revisions.refresh()
everyWhileVisible(COUNTERS_EVERY_MS, () => {
  if (Object.keys(doc.primary).length > 0) void refreshPrimary()
})
everyWhileVisible(JOURNAL_EVERY_MS, refreshJournal)
