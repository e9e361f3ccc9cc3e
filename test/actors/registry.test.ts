// Who is served: slots per identity, claimants on standby, held commands, with scripted connections.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createJob } from '../../src/actors/job.ts'
import { Registry, type ProcessEntry } from '../../src/actors/registry.ts'
import type { ControllerError } from '../../src/errors.ts'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import type { ProcessKind } from '../../src/protocol/command.ts'
import { fixedReply } from '../../src/sim/wire.ts'
import { fakeConnection, flush } from '../helpers/fake-link.ts'

const IDLE = fixedReply('{"client-id":1,"status":"idling","ports":[],"patches":[]}')

/** A connected, identified secondary (or a primary still being probed) and its registry entry. */
function peer(kind: ProcessKind, clientId?: number) {
  const link = fakeConnection(kind === 'primary' ? 'primary' : 'secondary')
  if (kind !== 'primary') link.reply(fixedReply(String(clientId)))
  const entry: ProcessEntry = { kind, clientId, connection: link.actor, peer: '127.0.0.1:1' }
  return { link, entry }
}
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: ControllerError) => `${error.code} ${error.message}`,
  )
/** The outcome if the promise has settled by the next turn of the event loop, else `pending`. */
const settled = (promise: Promise<unknown>) =>
  Promise.race([outcome(promise), flush().then(() => 'pending')])

test('the primary has a slot of its own; the listing is the primary, then secondaries by id', () => {
  const registry = new Registry()
  const registered: string[] = []
  registry.on('registered', (e) => registered.push(`${e.kind} ${e.clientId ?? ''}`.trim()))
  registry.claim(peer('vf', 2).entry)
  registry.claim(peer('nfv', 0).entry)
  registry.claim(peer('primary').entry)
  assert.equal(registered, ['vf 2', 'nfv 0', 'primary'])
  assert.equal(registry.list(), [
    { type: 'primary' },
    { type: 'nfv', 'client-id': 0 },
    { type: 'vf', 'client-id': 2 },
  ])
})

test('a secondary is found only under its own kind', () => {
  const registry = new Registry()
  const { entry } = peer('nfv', 1)
  registry.claim(entry)
  assert.is(registry.find('nfv', 1), entry)
  assert.throws(() => registry.secondary('vf', 1), /sec_id 1 not found\./)
  assert.throws(() => registry.primary(), /primary not found\./)
})

test('a claim on a served id: the claimant waits while the served one answers, and follows it', async () => {
  const registry = new Registry()
  const served = peer('nfv', 1)
  const claimant = peer('nfv', 1)
  const conflicts: ProcessEntry[] = []
  registry.on('conflict', (_, c) => conflicts.push(c))
  registry.claim(served.entry)
  registry.claim(claimant.entry)
  assert.equal(conflicts, [claimant.entry])
  assert.equal(served.link.written, ['_get_client_id', 'status'], 'the served one is asked')
  served.link.reply(IDLE)
  await flush()
  assert.is(registry.find('nfv', 1), served.entry, 'it answered: it stays served')
  assert.is(claimant.link.state(), 'ready', 'the claimant is left connected')
  registry.unregister(served.entry.connection)
  assert.is(registry.find('nfv', 1), claimant.entry, 'served once the other has gone')
})

test('a served connection that does not answer while its id is claimed is closed, and the claimant takes over', async () => {
  const registry = new Registry()
  const served = peer('nfv', 1)
  const claimant = peer('nfv', 1)
  registry.claim(served.entry)
  registry.claim(claimant.entry)
  served.link.clock.increment(1000) // its reply timeout
  await flush()
  assert.is(served.link.actor.getSnapshot().status, 'done', 'closed')
  registry.unregister(served.entry.connection) // as the listener does when a connection ends
  assert.is(registry.find('nfv', 1), claimant.entry)
})

test('a claim on an id whose connection has closed replaces it at once', () => {
  const registry = new Registry()
  const old = peer('nfv', 1)
  registry.claim(old.entry)
  old.link.close()
  const fresh = peer('nfv', 1)
  const replaced: (ProcessEntry | undefined)[] = []
  registry.on('registered', (_, r) => replaced.push(r))
  registry.claim(fresh.entry)
  assert.equal(replaced, [old.entry])
  assert.is(registry.find('nfv', 1), fresh.entry)
})

test('held commands are sent to the same process when it comes back', async () => {
  const registry = new Registry()
  const { job, promise } = createJob(nfv.forward())
  registry.hold({ kind: 'nfv', clientId: 1 }, [job], 60_000)
  const back = peer('nfv', 1)
  registry.claim(back.entry)
  assert.equal(back.link.written, ['_get_client_id', 'forward'])
  back.link.reply('forward')
  assert.is(await outcome(promise), 'ok')
})

test('held commands fail when another kind takes the id, or when its deadline passes', async () => {
  const registry = new Registry()
  const taken = createJob(nfv.forward())
  registry.hold({ kind: 'nfv', clientId: 1 }, [taken.job], 60_000)
  const vf = peer('vf', 1)
  registry.claim(vf.entry)
  assert.equal(vf.link.written, ['_get_client_id'], 'nothing sent to the vf')
  assert.is(await settled(taken.promise), 'PROCESS_UNAVAILABLE not sent: vf 1 took over the id')
  const late = createJob(nfv.stop())
  registry.hold({ kind: 'nfv', clientId: 2 }, [late.job], 1) // fails on its own: nothing to wait for
  assert.is(
    await outcome(late.promise),
    'PROCESS_UNAVAILABLE not sent: nfv 2 disconnected and did not come back within 1 ms',
  )
})

test('close fails every held command, and any handed over after it', async () => {
  const registry = new Registry()
  const held = createJob(nfv.forward())
  registry.hold({ kind: 'nfv', clientId: 1 }, [held.job], 60_000)
  registry.close()
  const after = createJob(nfv.stop())
  registry.hold({ kind: 'nfv', clientId: 1 }, [after.job], 60_000)
  for (const promise of [held.promise, after.promise])
    assert.is(await settled(promise), 'CONNECTION_CLOSED not sent: the controller is shutting down')
})

test.run()
