// The one window into a connection: what it knows now, and its capabilities made once per thing learnt.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { capsNow, describe } from '../../src/actors/describe.ts'
import { fakeConnection } from '../helpers/fake-link.ts'

const NFV_2020_ID = '{"results":[{"result":"success"}],"client_id":1,"process_type":"nfv"}'

test('an unidentified connection has no kind, no caps and no view', () => {
  const c = fakeConnection('secondary')
  const d = describe(c.actor)
  assert.equal(
    [d.label, d.kind, d.caps, d.view, d.era, d.open],
    ['unidentified', undefined, undefined, undefined, 'unknown', true],
  )
  assert.is(d.queueDepth, 0)
})

test('the caps are the same object until the process shows more of its release', () => {
  const c = fakeConnection('secondary')
  c.reply(NFV_2020_ID) // a 2019+ nfv: its frame length is still to measure
  const first = capsNow(c.actor)
  assert.ok(first)
  assert.is(first.settled, false)
  assert.is(capsNow(c.actor), first)
  assert.is(describe(c.actor).caps, first)
  c.measure(32768)
  const after = capsNow(c.actor)
  assert.is.not(after, first)
  assert.is(after?.frameBytes, 32768)
  assert.equal(describe(c.actor).label, 'nfv:1')
})

test.run()
