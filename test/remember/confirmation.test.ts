// A confirmation as its store's syncs go: what a confirm is answered while the undo of an expired
// apply is being made durable.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { silentLogger } from '../../src/log/logger.ts'
import { EventHub } from '../../src/observe/event-hub.ts'
import { ControllerError } from '../../src/protocol/errors.ts'
import { startConfirmations } from '../../src/remember/confirmation.ts'
import type { Store } from '../../src/store/store.ts'
import type { Applier } from '../../src/topology/apply.ts'
import { testClock } from '../helpers/test-clock.ts'

/** A store whose syncs end when the test says (`syncs`: each one's end, in order). */
function heldStore() {
  const syncs: (() => void)[] = []
  const store = {
    meta: () => undefined,
    putMeta() {},
    sync: () => new Promise<void>((resolve) => syncs.push(resolve)),
  } as unknown as Store
  return { store, syncs }
}

/** Turns of the event loop until `done()` holds (what the code under test awaits is in memory). */
async function until(done: () => boolean) {
  for (let turns = 0; !done(); turns++) {
    if (turns > 100) throw new Error('never came')
    await new Promise((resolve) => setImmediate(resolve))
  }
}

test('a confirm while the expired apply is undone and its end is being synced: 409, nothing to confirm', async () => {
  const { store, syncs } = heldStore()
  const time = testClock()
  const applier = { undo: async () => {} } as unknown as Applier
  const confirmations = startConfirmations({
    store,
    applier: () => applier,
    hub: new EventHub(),
    log: silentLogger(),
    clock: time.clock,
  })
  const begun = confirmations.begin('a1', 'ops', 60, {})
  syncs.shift()!()
  await begun
  const armed = confirmations.arm('a1')
  syncs.shift()!()
  await armed
  time.fire() // not confirmed in time: undone, then the confirmation's end is synced
  await until(() => syncs.length === 1)
  const error = await confirmations.confirm('ops').then(
    () => undefined,
    (e: unknown) => e,
  )
  assert.instance(error, ControllerError)
  assert.is((error as ControllerError).code, 'NOTHING_TO_CONFIRM')
  assert.is((error as ControllerError).message, 'no apply waits for a confirmation')
  syncs.shift()!()
})

test.run()
