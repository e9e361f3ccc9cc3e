// @ts-check
// The primary's port counters table: totals, packets per second, drops that grow, a sparkline.
import { h } from './dom.js'
import { latest, portsOf, ratePps, sparkline, WINDOW_MS } from './rates.js'

/** @typedef {import('./rates.js').History} History */
/** @typedef {import('./rates.js').PrimaryCounters} PrimaryCounters */

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
 * Rows of the primary's port counters with the rates of the last interval between two reads; a
 * drop counter that grew in it is marked `data-growing` (and shown so).
 * @param {PrimaryCounters} status @param {History} history @param {number} now
 */
export function counterRows(status, history, now) {
  return portsOf(status).map(([port, counters]) => {
    const rate = latest(history, port)
    /** @param {'rx' | 'tx' | 'rx_drop' | 'tx_drop'} key */
    const total = (key) => {
      const value = counters[key]
      const text = value === undefined ? '–' : String(value)
      const growth = key.endsWith('_drop') && rate && rate[key] > 0 ? ratePps(rate[key]) : ''
      if (!growth) return h('td', { 'data-counter': key }, [text])
      // marked in words as well as in colour
      return h('td', { 'data-counter': key, 'data-growing': growth }, [
        text,
        h('span', { class: 'growth' }, [` +${growth}`]),
      ])
    }
    /** @param {'rx' | 'tx'} key */
    const perSecond = (key) => h('td', { 'data-rate': key }, [rate ? ratePps(rate[key]) : '…'])
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
