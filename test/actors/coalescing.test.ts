// Reads joining a queued read on a live connection: one status sent, every request answered.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import { fixedReply } from '../../src/sim/wire.ts'
import { fakeConnection, flush } from '../helpers/fake-link.ts'

test('status requests while one is in flight share one queued status; every one is answered', async () => {
  const c = fakeConnection('secondary')
  c.reply(fixedReply('1'))
  for (let i = 0; i < 5; i++) void c.ask(nfv.status())
  assert.equal(c.written.slice(1), ['status'])
  c.reply(fixedReply('{"client-id":1,"status":"idling","ports":[],"patches":[]}'))
  assert.equal(c.written.slice(1), ['status', 'status'])
  c.reply(fixedReply('{"client-id":1,"status":"running","ports":[],"patches":[]}'))
  await flush()
  assert.is(c.outcomes.length, 5)
  assert.match(c.outcomes[0]!, /Idle/)
  for (const later of c.outcomes.slice(1)) assert.match(later, /Running/)
})

test('joined requests fail together when the shared status times out', async () => {
  const c = fakeConnection('secondary')
  c.reply(fixedReply('1'))
  void c.ask(nfv.forward())
  for (let i = 0; i < 3; i++) void c.ask(nfv.status())
  c.clock.increment(1000)
  await flush()
  assert.equal(
    c.outcomes.map((o) => o.split(' ')[0]),
    ['REPLY_TIMEOUT', 'PROCESS_UNRESPONSIVE', 'PROCESS_UNRESPONSIVE', 'PROCESS_UNRESPONSIVE'],
  )
})

test.run()
