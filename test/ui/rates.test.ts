// Port rates from successive counter reads, and the sparkline's points, as input -> output tables.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import {
  latest,
  MIN_INTERVAL_MS,
  ratePps,
  record,
  sparkline,
  WINDOW_MS,
  type History,
} from '../../src/ui/rates.js'

const phy = (rx: number, tx = 0, tx_drop = 0) => ({ phy_ports: [{ id: 0, rx, tx, tx_drop }] })

/** The history after reads at the given times (ms) of the given statuses. */
const after = (...reads: [number, object][]) => {
  const history: History = new Map()
  for (const [t, status] of reads) record(history, t, status)
  return history
}

test('one read has no rate; the next gives per-second rates over the time between them', () => {
  assert.is(latest(after([0, phy(100)]), 'phy:0'), undefined)
  const history = after([0, phy(100, 50)], [2000, phy(164, 110, 4)])
  assert.equal(latest(history, 'phy:0'), { t: 2000, rx: 32, tx: 30, rx_drop: 0, tx_drop: 2 })
})

test('ring ports have their own ids and both drop counters', () => {
  const ring = (n: number) => ({ ring_ports: [{ id: 3, rx: n, rx_drop: n, tx: n, tx_drop: 0 }] })
  const history = after([0, ring(0)], [1000, ring(7)])
  assert.equal(latest(history, 'ring:3'), { t: 1000, rx: 7, tx: 7, rx_drop: 7, tx_drop: 0 })
})

test('a read too soon after the last (an event’s) is no interval: the next one counts from the last', () => {
  const history = after([0, phy(0)], [MIN_INTERVAL_MS - 1, phy(10)], [2000, phy(40)])
  assert.equal(history.get('phy:0')!.rates.length, 1)
  assert.is(latest(history, 'phy:0')!.rx, 20)
})

test('counters that went down (clear, a new primary) give no rate, and count again from there', () => {
  const history = after([0, phy(500)], [2000, phy(3)], [4000, phy(13)])
  assert.equal(
    history.get('phy:0')!.rates.map((r) => r.rx),
    [5],
  )
})

test('a port no longer listed is forgotten; rates older than the window are dropped', () => {
  assert.equal([...after([0, phy(0)], [2000, { phy_ports: [] }]).keys()], [])
  const reads: [number, object][] = []
  for (let t = 0; t <= WINDOW_MS + 10_000; t += 2000) reads.push([t, phy(t)])
  const rates = after(...reads).get('phy:0')!.rates
  assert.ok(rates[0]!.t >= rates.at(-1)!.t - WINDOW_MS)
  assert.is(rates.length, WINDOW_MS / 2000 + 1)
})

test('rates read as packets per second, compactly', () => {
  assert.equal([0, 0.5, 32, 999, 12_345, 14_880_952].map(ratePps), [
    '0 pps',
    '0.5 pps',
    '32 pps',
    '999 pps',
    '12.3K pps',
    '14.9M pps',
  ])
})

test('the sparkline spans the window to its right edge, the highest rate at the top', () => {
  const rate = (t: number, rx: number, tx: number) => ({ t, rx, tx, rx_drop: 0, tx_drop: 0 })
  const now = 600_000
  const line = sparkline([rate(now - WINDOW_MS / 2, 10, 0), rate(now, 20, 5)], now, {
    width: 100,
    height: 20,
  })
  assert.equal(line, { rx: '50,10 100,0', tx: '50,20 100,15', max: 20 })
  assert.equal(sparkline([rate(now, 0, 0)], now, { width: 100, height: 20 }), {
    rx: '100,20',
    tx: '100,20',
    max: 0,
  })
  assert.equal(sparkline([], now, { width: 100, height: 20 }), { rx: '', tx: '', max: 0 })
})

test.run()
