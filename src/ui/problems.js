// @ts-check
// The problems `spp-ctl topology check` reports, as the page lists them above the graph, and the
// line that says where the page's rates come from and whether they are current.
import { h } from './dom.js'
import { hopName, problemsOf } from './hops.js'

/** @typedef {import('./hops.js').PathsDocument} PathsDocument */
/**
 * Where the page's rates come from: the controller's pushes (`pushed`, with how current they are),
 * or, from a controller that pushes none, its counters read every few seconds (`polled`, and why).
 * @typedef {{ mode: 'pushed', state: 'live' | 'waiting' | 'stale' | 'paused', since?: number }
 *   | { mode: 'polled', why: string }
 *   | { mode: 'unknown' }} RatesSource
 */

const VERDICT_WORDS = /** @type {Record<string, string>} */ ({
  dropping: 'dropping',
  idle: 'idle',
  loop: 'loop',
  dead_end: 'dead end',
})

/**
 * The list's content: each problem (`li[data-problem]` with its `data-verdict`), or that there is
 * none, or why none can be told; the processes not read yet, whose hops are missing.
 * @param {PathsDocument | undefined} paths @param {RatesSource} source
 * @returns {{ count: string, nodes: HTMLElement[] }} `count` for `data-problems`: a number, or
 *   `unknown` when the page cannot tell
 */
export function problemsView(paths, source) {
  if (source.mode === 'polled')
    return {
      count: 'unknown',
      nodes: [
        h('p', {}, [
          'Not judged: this controller tells no paths (',
          source.why,
          '). Update spp-ctl for the rates of each hop and where packets are lost.',
        ]),
      ],
    }
  if (!paths) return { count: 'unknown', nodes: [h('p', {}, ['Waiting for the paths…'])] }
  const problems = problemsOf(paths)
  const nodes =
    problems.length === 0
      ? [h('p', { class: 'none' }, ['None: packets go where they are sent.'])]
      : [
          h(
            'ul',
            {},
            problems.map(({ hop, text }) =>
              h('li', { 'data-problem': hop.id, 'data-verdict': hop.verdict.verdict }, [
                h('strong', {}, [VERDICT_WORDS[hop.verdict.verdict] ?? hop.verdict.verdict]),
                ` ${hopName(hop)}: ${text}`,
              ]),
            ),
          ),
        ]
  if (paths.window_s === null)
    nodes.push(
      h('p', { class: 'note' }, [
        'Drops are judged from two reads of the counters a second apart: waiting for the second.',
      ]),
    )
  if (paths.not_read.length > 0)
    nodes.push(
      h('p', { class: 'note', 'data-not-read': paths.not_read.join(' ') }, [
        `Not read yet, so missing here: what ${paths.not_read.join(', ')} ${paths.not_read.length === 1 ? 'moves' : 'move'}.`,
      ]),
    )
  return { count: String(problems.length), nodes }
}

/**
 * The words of the rates line (`#rates`, whose `data-rates` is the state, or `polled`).
 * @param {RatesSource} source @param {number | null | undefined} windowS
 */
export function ratesText(source, windowS) {
  if (source.mode === 'unknown') return 'Rates: asking the controller…'
  if (source.mode === 'polled')
    return `This controller pushes no rates (${source.why}): the port rates below are worked out from its counters, read every 2 s; the graph shows no rates.`
  switch (source.state) {
    case 'live':
      return `Rates pushed by the controller after each read of the counters${windowS ? `, over ${windowS.toFixed(1)} s` : ''}.`
    case 'waiting':
      return 'Waiting for the controller’s rates…'
    case 'paused':
      return 'Rates paused while the page is hidden.'
    case 'stale':
      return `No rates for ${Math.round(source.since ?? 0)} s: the controller has not read the counters (is the primary connected?).`
  }
}
