import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { EventHub } from '../../src/observe/event-hub.ts'

test('events get increasing ids; since() replays what came after an id', () => {
  const hub = new EventHub(10)
  for (let i = 0; i < 5; i++) hub.publish('e', { i })
  assert.equal(hub.since(3), {
    events: [
      { id: 4, type: 'e', data: { i: 3 } },
      { id: 5, type: 'e', data: { i: 4 } },
    ],
    complete: true,
  })
  assert.equal(hub.since(5), { events: [], complete: true })
  assert.equal(hub.since(0).events.length, 5)
})

test('the buffer is bounded; an id older than it, or unknown, is reported incomplete', () => {
  const hub = new EventHub(3)
  for (let i = 0; i < 10; i++) hub.publish('e', { i })
  assert.equal(
    hub.since(7).events.map((e) => e.id),
    [8, 9, 10],
  )
  assert.is(hub.since(7).complete, true)
  assert.is(hub.since(6).complete, false)
  assert.is(hub.since(99).complete, false, 'an id from a previous run of the controller')
  assert.is(hub.since(-1).complete, false)
})

test('rates go to the streams that asked, with no id, kept for no replay; their count is told', () => {
  const hub = new EventHub(10)
  const counts: number[] = []
  hub.onRatesWatchers((watchers) => counts.push(watchers))
  const got = { plain: [] as unknown[], rates: [] as unknown[] }
  const stream = (list: unknown[]) => ({ push: (event: unknown) => list.push(event), close() {} })
  hub.subscribe(stream(got.plain))
  const leave = hub.subscribe(stream(got.rates), { rates: true })
  hub.publish('e', { i: 1 })
  hub.pushRates({ pps: 5 })
  assert.equal(got.plain, [{ id: 1, type: 'e', data: { i: 1 } }])
  assert.equal(got.rates, [
    { id: 1, type: 'e', data: { i: 1 } },
    { type: 'rates', data: { pps: 5 } },
  ])
  assert.equal(
    hub.since(0).events.map((e) => e.type),
    ['e'],
  )
  assert.is(hub.lastId, 1)
  assert.is(hub.ratesWatchers, 1)
  leave()
  hub.subscribe(stream([]), { rates: true })
  hub.close()
  assert.equal(counts, [1, 0, 1, 0])
})

test.run()
