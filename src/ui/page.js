// @ts-check
// The live topology page: loads /v1/topology, then follows /v1/events and refetches what changed.
// While it is visible it asks for the rates too (`?rates=1`): the controller pushes the paths, with
// every hop's rates and verdict and every port's counters, after each read of the counters. From a
// controller that pushes none, the primary's counters are read once a period while it is visible.
// With --auth-file every request carries this tab's token, asked for when the controller refuses.
// @ts-expect-error served by the controller from node_modules (see src/http/ui-routes.ts)
import cytoscape from './vendor/cytoscape.mjs'
// @ts-expect-error served by the controller from node_modules (see src/http/ui-routes.ts)
import dagre from './vendor/cytoscape-dagre.mjs'
import { CONFIRM_EVENTS, confirmView } from './confirm.js'
import { counterRows } from './counters.js'
import { driftView } from './drift.js'
import { h, processSections } from './dom.js'
import { follow } from './follow.js'
import { historyView } from './history.js'
import { refreshJournal } from './journal.js'
import { everyWhileVisible } from './poll.js'
import { problemsView, ratesText } from './problems.js'
import { freshness, polledPorts, record, recordPushed } from './rates.js'
import { read, readAged } from './read.js'
import { setUpTokenForm } from './token-form.js'
import { isUnreadable, SECTIONS, structureKey, toElements } from './graph.js'
import { GRAPH_STYLE } from './graph-style.js'

/** @typedef {import('./graph.js').TopologyDocument} TopologyDocument */
/** @typedef {import('./hops.js').PathsDocument} PathsDocument */
/** @typedef {import('./problems.js').RatesSource} RatesSource */

// From a controller that pushes no rates: one read of the primary's status per period per page
// (the controller shares one command among the pages whose reads meet).
const COUNTERS_EVERY_MS = 2000
// How often the page looks whether the rates pushed are still coming.
const FRESHNESS_EVERY_MS = 1000
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
/** The paths as last pushed (or read), with their rates and verdicts. @type {PathsDocument | undefined} */
let paths
/** Whether the controller pushes rates: `polled` (and why) when it does not. */
let rates =
  /** @type {{ mode: 'unknown' } | { mode: 'pushed' } | { mode: 'polled', why: string }} */ ({
    mode: 'unknown',
  })
// When the rates were asked for (the page shown, the stream followed anew) and last pushed.
let ratesAskedAt = performance.now()
/** @type {number | undefined} */
let ratesPushedAt
const drift = driftView(render) // processes that differ from what is remembered
const revisions = historyView() // what was remembered, and going back to it
const confirmation = confirmView(() => void reloadAll()) // an apply that waits for its confirmation

/**
 * Keeps the counters of a read of the primary's status, for the rates: at the time it was read,
 * `ageMs` before it was answered (the controller shares reads among its readers).
 * @param {number} ageMs
 */
function recordCounters(ageMs) {
  if (rates.mode === 'pushed' || isUnreadable(doc.primary)) return
  lastRead = performance.now() - ageMs
  record(history, lastRead, /** @type {any} */ (doc.primary))
}

const pushed = () => rates.mode === 'pushed'
const visible = () => document.visibilityState === 'visible'

/** Where the rates come from now, and whether they are current. @returns {RatesSource} */
function ratesSource() {
  if (rates.mode !== 'pushed') return rates
  if (!visible()) return { mode: 'pushed', state: 'paused' }
  const now = performance.now()
  const state = freshness(now, ratesPushedAt, ratesAskedAt, paths?.window_s ?? null)
  return { mode: 'pushed', state, since: (now - (ratesPushedAt ?? ratesAskedAt)) / 1000 }
}

/** The line that says where the rates come from (`#rates[data-rates]`). */
function showRates() {
  const line = document.getElementById('rates')
  if (!line) return
  const source = ratesSource()
  const state = source.mode === 'pushed' ? source.state : source.mode
  const text = ratesText(source, paths?.window_s)
  if (line.dataset.rates === state && line.textContent === text) return
  line.dataset.rates = state
  line.textContent = text
}

/** Says so when the primary's counters are a simulator's (its status has `simulator`). */
function showSimulated() {
  const notice = document.getElementById('simulated')
  if (!notice) return
  const primary = /** @type {{ simulator?: unknown }} */ (doc.primary)
  const simulator = typeof primary.simulator === 'string' ? primary.simulator : ''
  notice.hidden = simulator === ''
  notice.dataset.simulated = simulator
  notice.textContent = simulator
    ? `Simulated: the counters are ${simulator}’s, not a DPDK host’s.`
    : ''
}

/** Brings graph and text to the document; the layout runs only when elements come or go. */
function render() {
  const elements = toElements(doc, pushed() ? paths : undefined)
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
  // What each edge carries, as text (the graph is a picture: screen readers and tests read this)
  document.getElementById('graph-edges')?.replaceChildren(
    ...cy.edges().map((/** @type {any} */ edge) =>
      h(
        'li',
        {
          'data-edge': edge.id(),
          'data-rate': edge.data('rate') ?? '',
          'data-state': edge.data('state') ?? '',
        },
        [`${edge.id()}: ${String(edge.data('label')).replaceAll('\n', ' · ')}`],
      ),
    ),
  )
  const key = structureKey(elements)
  if (key !== layoutKey) {
    layoutKey = key
    cy.layout({ name: 'dagre', rankDir: 'LR', nodeSep: 25, rankSep: 110, animate: false }).run()
    // counted for tests: a change that adds or removes nothing must not move the picture
    if (graph) graph.dataset.layouts = String(Number(graph.dataset.layouts ?? 0) + 1)
  }
  document.getElementById('processes')?.replaceChildren(...processSections(doc, SECTIONS))
  drift.mark(document.getElementById('processes'))
  const counters = document.querySelector('#counters tbody')
  const ports = pushed()
    ? (paths?.ports ?? {})
    : polledPorts(/** @type {any} */ (doc.primary), history)
  const now = pushed() ? (ratesPushedAt ?? performance.now()) : lastRead
  counters?.replaceChildren(...counterRows(ports, history, now))
  const problems = problemsView(pushed() ? paths : undefined, ratesSource())
  const list = document.getElementById('problems')
  if (list) list.dataset.problems = problems.count
  list?.replaceChildren(...problems.nodes)
  showRates()
  showSimulated()
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

/**
 * Reads the paths once: whether the controller pushes rates (an older one has no paths: 404), and
 * the rates and verdicts to show until the first push.
 */
async function readPaths() {
  const body = /** @type {PathsDocument | { error: string } | undefined} */ (
    await read('/v1/topology/paths')
  )
  const was = rates.mode
  if (body === undefined) rates = { mode: 'polled', why: 'GET /v1/topology/paths: 404' }
  else if ('error' in body)
    rates = { mode: 'polled', why: `GET /v1/topology/paths failed: ${body.error.trim()}` }
  else {
    rates = { mode: 'pushed' }
    paths ??= body
  }
  if (rates.mode !== was) stream?.sync() // ask for the rates, or stop asking
}

const reloadAll = () =>
  refresh('all', async () => {
    const { body, ageMs } = await readAged('/v1/topology')
    doc = /** @type {TopologyDocument} */ (body)
    confirmation.show(/** @type {any} */ (doc).confirmation)
    recordCounters(ageMs) // the age of its oldest read: the primary's is at most that
    void drift.update()
    if (!pushed()) await readPaths() // perhaps it pushes them now
  })

/** Each `rates` event: the paths with the rates and verdicts of a read of the counters. */
function onRates(/** @type {object} */ data) {
  rates = { mode: 'pushed' }
  paths = /** @type {PathsDocument} */ (data)
  ratesPushedAt = performance.now()
  recordPushed(history, ratesPushedAt, paths.ports)
  render()
}

/** The stream that asked for rates was refused: the page works them out from its own reads. */
function ratesRefused(/** @type {string} */ reason) {
  rates = { mode: 'polled', why: `GET /v1/events?rates=1: ${reason}` }
  render()
}

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
      paths = undefined // and its rates are gone with it
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

/** @type {{ sync(): void } | undefined} */
let stream
setUpTokenForm()
// It asks for the rates from the start (the controller that serves the page pushes them); one
// that turns out to tell no paths, or refuses `?rates=1`, is followed without.
stream = follow({
  retryMs: COUNTERS_EVERY_MS,
  onEvent,
  onRates,
  wantsRates: () => rates.mode !== 'polled' && visible(),
  ratesRefused,
  reload: reloadAll,
})
document.addEventListener('visibilitychange', () => {
  if (!visible()) return showRates()
  ratesAskedAt = performance.now() // asked again: the rates shown are from before
  ratesPushedAt = undefined
  showRates()
})
await reloadAll()
void refreshJournal()
void revisions.refresh()
everyWhileVisible(COUNTERS_EVERY_MS, () => {
  if (!pushed() && Object.keys(doc.primary).length > 0) void refreshPrimary()
})
everyWhileVisible(FRESHNESS_EVERY_MS, showRates)
everyWhileVisible(JOURNAL_EVERY_MS, refreshJournal)
