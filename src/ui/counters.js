// @ts-check
// The primary's port counters table: totals, packets per second, drops that grow, a sparkline.
import { h } from './dom.js'
import { ratePps, sparkline, WINDOW_MS } from './rates.js'

/** @typedef {import('./rates.js').History} History */
/** @typedef {import('./hops.js').Ports} Ports */

const SVG = 'http://www.w3.org/2000/svg'
const BOX = { width: 120, height: 24 }
const MINUTES = WINDOW_MS / 60_000

/**
 * An SVG element with attributes and children (a chart needs no style attribute: CSS colours it).
 * @param {string} tag @param {Record<string, string>} attributes @param {(Node | string)[]} children
 */
function svg(tag, attributes, children = []) {
  const element = document.createElementNS(SVG, tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  element.append(...children)
  return element
}

/** @param {string} port @param {History} history @param {number} now */
function chart(port, history, now) {
  const rates = history.get(port)?.rates ?? []
  const { rx, tx, max } = sparkline(rates, now, BOX)
  const label = `${port}, last ${MINUTES} minutes: up to ${ratePps(max)}`
  return svg(
    'svg',
    {
      class: 'sparkline',
      viewBox: `0 0 ${BOX.width} ${BOX.height}`,
      width: String(BOX.width),
      height: String(BOX.height),
      role: 'img',
      'aria-label': label,
      'data-points': String(rates.length),
    },
    [
      svg('title', {}, [label]),
      svg('polyline', { class: 'rx', points: rx }),
      svg('polyline', { class: 'tx', points: tx }),
    ],
  )
}

/**
 * Rows of the primary's port counters with their rates, as the controller pushes them (or as the
 * page worked them out): a counter SPP does not count shows so, never `0 pps`; a drop counter that
 * grows is marked `data-growing` (red, and in words), unless it is 18.11's phy `tx_drop`, which
 * follows drops downstream (`data-note`: grey, its note as the title).
 * @param {Ports} ports @param {History} history @param {number} now
 */
export function counterRows(ports, history, now) {
  return Object.entries(ports).map(([port, counters]) => {
    /** @param {'rx' | 'tx' | 'rx_drop' | 'tx_drop'} key */
    const total = (key) => {
      const counter = counters[key]
      const text = counter === undefined ? '–' : String(counter.value)
      const growth =
        key.endsWith('_drop') && (counter?.pps ?? 0) > 0 ? ratePps(counter?.pps ?? 0) : ''
      if (!growth) return h('td', { 'data-counter': key }, [text])
      // marked in words as well as in colour
      /** @type {Record<string, string>} */
      const note = counter?.note ? { 'data-note': '', title: counter.note } : {}
      return h('td', { 'data-counter': key, 'data-growing': growth, ...note }, [
        text,
        h('span', { class: 'growth' }, [` +${growth}`]),
      ])
    }
    /** @param {'rx' | 'tx'} key */
    const perSecond = (key) => {
      const counter = counters[key]
      if (counter === undefined) return h('td', { 'data-rate': key }, ['–'])
      if (!counter.counted)
        return h(
          'td',
          {
            'data-rate': key,
            'data-source': 'not counted',
            title: counter.note ?? 'SPP does not count this',
          },
          ['not counted'],
        )
      return h('td', { 'data-rate': key }, [counter.pps === null ? '…' : ratePps(counter.pps)])
    }
    return h('tr', { 'data-port': port }, [
      h('th', { scope: 'row' }, [port]),
      total('rx'),
      total('tx'),
      total('rx_drop'),
      total('tx_drop'),
      perSecond('rx'),
      perSecond('tx'),
      h('td', { class: 'chart' }, [chart(port, history, now)]),
    ])
  })
}
