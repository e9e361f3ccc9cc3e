// @ts-check
// The live topology page: loads /v1/topology, then follows /v1/events and refetches what changed;
// the primary's counters, which change without events, are read once a period while it is visible.
// @ts-expect-error served by the controller from node_modules (see src/http/ui-routes.ts)
import cytoscape from './vendor/cytoscape.mjs'
// @ts-expect-error served by the controller from node_modules (see src/http/ui-routes.ts)
import dagre from './vendor/cytoscape-dagre.mjs'
import { counterRows } from './counters.js'
import { DRIFT_EVENTS, driftView } from './drift.js'
import { processSections } from './dom.js'
import { everyWhileVisible } from './poll.js'
import { record } from './rates.js'
import { isUnreadable, SECTIONS, structureKey, toElements } from './graph.js'
import { GRAPH_STYLE } from './graph-style.js'

/** @typedef {import('./graph.js').TopologyDocument} TopologyDocument */

// One read of the primary's status per period per page (and the controller shares one command
// among the pages whose reads meet): packets per second need successive reads, nothing else does.
const COUNTERS_EVERY_MS = 2000
const SECTION_OF = /** @type {Record<string, 'nfvs' | 'vfs' | 'mirrors' | 'pcaps'>} */ (
  Object.fromEntries(SECTIONS.map(([section, kind]) => [kind, section]))
)
const EVENT_TYPES = [
  'process.identified',
  'process.replaced',
  'process.disconnected',
  'nfv.status',
  'port.added',
  'port.deleted',
  'patch.set',
  'patches.reset',
  'component.started',
  'component.stopped',
  'port.attached',
  'port.detached',
  'classifier.added',
  'classifier.removed',
  'command.failed',
  'primary.stats.cleared',
  'events.lost',
  ...DRIFT_EVENTS,
]

cytoscape.use(dagre)
const cy = cytoscape({ container: document.getElementById('graph'), style: GRAPH_STYLE })
/** @type {TopologyDocument} */
let doc = { primary: {}, nfvs: {}, vfs: {}, mirrors: {} }
let layoutKey = ''
/** @type {import('./rates.js').History} */
const history = new Map()
let lastRead = 0
const drift = driftView(fetch, render) // processes that differ from what is remembered

/** Keeps the counters of a read of the primary's status, for the rates. */
function recordCounters() {
  if (isUnreadable(doc.primary)) return
  lastRead = performance.now()
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
  const key = structureKey(elements)
  if (key !== layoutKey) {
    layoutKey = key
    cy.layout({ name: 'dagre', rankDir: 'LR', nodeSep: 25, rankSep: 90, animate: false }).run()
    // counted for tests: a change that adds or removes nothing must not move the picture
    const graph = document.getElementById('graph')
    if (graph) graph.dataset.layouts = String(Number(graph.dataset.layouts ?? 0) + 1)
  }
  document.getElementById('processes')?.replaceChildren(...processSections(doc, SECTIONS))
  drift.mark(document.getElementById('processes'))
  const counters = document.querySelector('#counters tbody')
  counters?.replaceChildren(...counterRows(/** @type {any} */ (doc.primary), history, lastRead))
}

/** @param {string} url @returns {Promise<object | undefined>} undefined when not connected (404) */
async function read(url) {
  const response = await fetch(url)
  if (response.status === 404) return undefined
  if (!response.ok) return { error: await response.text() }
  return /** @type {object} */ (await response.json())
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
    doc.primary = /** @type {any} */ ((await read('/v1/primary/status')) ?? {})
    recordCounters()
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
    doc = /** @type {TopologyDocument} */ (await read('/v1/topology'))
    recordCounters()
    void drift.update()
  })

/** @param {string} type @param {{ kind?: string, 'client-id'?: number }} data */
function onEvent(type, data) {
  if (type === 'events.lost') return void reloadAll()
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

/** @param {'connecting' | 'live' | 'reconnecting'} state @param {string} text */
function showConnection(state, text) {
  const element = document.getElementById('connection')
  if (!element) return
  element.dataset.connection = state
  element.textContent = text
}

// EventSource reconnects by itself, sending Last-Event-ID, so missed events are replayed. It gives
// up only when an answer is not an event stream: then a new one starts from a full reload.
function follow() {
  const source = new EventSource('/v1/events')
  let dropped = false
  source.onopen = () => {
    showConnection('live', 'Live: following the controller’s events.')
    if (dropped) void reloadAll()
    dropped = false
  }
  source.onerror = () => {
    dropped = true
    showConnection('reconnecting', 'Event stream lost: reconnecting…')
    if (source.readyState === EventSource.CLOSED) setTimeout(follow, COUNTERS_EVERY_MS)
  }
  for (const type of EVENT_TYPES)
    source.addEventListener(type, (event) => onEvent(type, JSON.parse(event.data)))
}

follow()
await reloadAll()
everyWhileVisible(COUNTERS_EVERY_MS, () => {
  if (Object.keys(doc.primary).length > 0) void refreshPrimary()
})
