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

test.run()
