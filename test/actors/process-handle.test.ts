// Asking a process through its handle: what is refused before it is queued, and each kind's status.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { askOn } from '../../src/actors/process-handle.ts'
import { statusOf } from '../../src/protocol/kinds/status.ts'
import type { ControllerError } from '../../src/protocol/errors.ts'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import { vfCommands } from '../../src/protocol/kinds/vf.ts'
import { fixedReply } from '../../src/sim/wire.ts'
import { fakeConnection, flush } from '../helpers/fake-link.ts'

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: ControllerError) => `${error.code} ${error.message}`,
  )
/** The outcome if it is there by the next turn of the event loop: a refusal needs no reply. */
const atOnce = (promise: Promise<unknown>) =>
  Promise.race([failure(promise), flush().then(() => 'pending')])

function identified() {
  const c = fakeConnection('secondary')
  c.reply(fixedReply('1'))
  return c
}

test('a malformed line is refused and never queued', async () => {
  const c = identified()
  const smuggled = vfCommands.componentStop('fw1\nexit')
  assert.is(
    await atOnce(askOn(c.actor, smuggled)),
    'INVALID_REQUEST refusing to send a malformed command',
  )
  assert.equal(c.written, ['_get_client_id'])
})

test('a closed connection refuses at once', async () => {
  const c = identified()
  c.close()
  assert.is(
    await atOnce(askOn(c.actor, nfv.forward())),
    'CONNECTION_CLOSED the process has disconnected',
  )
})

test("a status read sends a status and answers with the kind's own decoded body", async () => {
  const c = identified()
  const status = askOn(c.actor, statusOf('nfv'))
  assert.equal(c.written, ['_get_client_id', 'status'])
  c.reply(fixedReply('{"client-id":1,"status":"running","ports":["phy:0"],"patches":[]}'))
  assert.equal(await status, {
    'client-id': 1,
    status: 'Running',
    ports: ['phy:0'],
    patches: [],
  })
})

test('a status of the wrong kind fails to decode: a vf is asked for a JSON status', async () => {
  const c = identified()
  const status = askOn(c.actor, statusOf('vf'))
  c.reply(fixedReply('{"client-id":1,"status":"running","ports":[],"patches":[]}'))
  assert.match(await failure(status), /^BAD_REPLY /)
})

test.run()
