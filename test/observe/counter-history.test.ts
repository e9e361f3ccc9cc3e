// The primary's reads over time and the rates of its counters: which two reads a rate is taken
// over, by their read times, and when there is none.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CounterHistory } from '../../src/observe/counter-history.ts'
import { counterRates } from '../../src/observe/counter-rates.ts'
import type { PrimaryStatus } from '../../src/protocol/bodies.ts'

/** A 2020 primary's status with phy:0's rx and ring:0's tx as given. */
const status = (rx: number, tx = 0): PrimaryStatus => ({
  lcores: [0],
  phy_ports: [{ id: 0, eth: '00:00:00:00:00:01', rx, tx: 0, tx_drop: 0 }],
  ring_ports: [{ id: 0, rx: 0, rx_drop: 0, tx, tx_drop: 0 }],
})
const rate = (history: CounterHistory, name: string) =>
  counterRates(history.pair()).counters.get(name)

test('a rate is the count gained over the two newest reads at least a second apart, by their times', () => {
  const history = new CounterHistory(() => 0)
  history.push(status(0), 10_000)
  assert.equal(rate(history, 'phy:0 rx'), { value: 0, pps: null, missing: 'no-window' })
  history.push(status(500), 10_600) // within a second of the first: still no pair
  assert.equal(rate(history, 'phy:0 rx'), { value: 500, pps: null, missing: 'no-window' })
  history.push(status(2000), 12_000)
  // against 10 600 (the newest a second before), not 10 000
  assert.equal(rate(history, 'phy:0 rx'), { value: 2000, pps: 1071.4 })
  assert.is(counterRates(history.pair()).windowS, 1.4)
  history.push(status(2000), 13_500)
  assert.equal(rate(history, 'phy:0 rx'), { value: 2000, pps: 0 }, 'no packets: 0, a count')
})

test('a counter that went down has no rate; a reset forgets every read', () => {
  const history = new CounterHistory(() => 0)
  history.push(status(5000, 100), 0)
  history.push(status(40, 200), 1000)
  assert.equal(rate(history, 'phy:0 rx'), { value: 40, pps: null, missing: 'reset' })
  assert.equal(rate(history, 'ring:0 tx'), { value: 200, pps: 100 })
  history.reset()
  assert.is(history.pair(), undefined)
  history.push(status(50), 2000)
  assert.equal(rate(history, 'phy:0 rx'), { value: 50, pps: null, missing: 'no-window' })
})

test('the history keeps what the window needs, however often the primary is read', () => {
  const history = new CounterHistory(() => 0)
  for (let at = 0; at <= 60_000; at += 10) history.push(status(at), at)
  const { newer, older } = history.pair()!
  assert.is(newer.at, 60_000)
  assert.is(older!.at, 59_000, 'the newest read a second before, although reads came every 10 ms')
  assert.equal(rate(history, 'phy:0 rx'), { value: 60_000, pps: 1000 })
})

test('18.11 reports its phy tx_drop as the drops downstream: told by a status without lcores', () => {
  const history = new CounterHistory(() => 0)
  const { lcores: _, ...old } = status(1)
  history.push(old, 0)
  assert.ok(counterRates(history.pair()).downstreamTxDrop)
  history.push(status(1), 1000)
  assert.not.ok(counterRates(history.pair()).downstreamTxDrop)
})

test.run()
