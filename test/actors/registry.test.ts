// Who is served: slots per identity, claimants on standby, held commands, with scripted connections.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createJob } from '../../src/actors/job.ts'
import { Registry } from '../../src/actors/registry.ts'
import type { ControllerError } from '../../src/protocol/errors.ts'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import type { ProcessKind } from '../../src/protocol/command.ts'
import { idText, processId, type ProcessId } from '../../src/protocol/process-id.ts'
import { fixedReply } from '../../src/sim/wire.ts'
import { fakeConnection, flush } from '../helpers/fake-link.ts'

const IDLE = fixedReply('{"client-id":1,"status":"idling","ports":[],"patches":[]}')

/** A connected, identified secondary (or a primary still being probed) and its id. */
function peer(kind: ProcessKind, clientId?: number) {
  const link = fakeConnection(kind === 'primary' ? 'primary' : 'secondary')
  if (kind !== 'primary') link.reply(fixedReply(String(clientId)))
  return {
    link,
    id: processId(kind, clientId),
    claim: (r: Registry) => r.claim(link.actor, processId(kind, clientId)),
  }
}
/** The connection (its peer) a process's handle reaches now. */
const reached = (registry: Registry, id: ProcessId) => registry.find(id).describe().peer
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
  registry.on('registered', (p) => registered.push(idText(p.id)))
  peer('vf', 2).claim(registry)
  peer('nfv', 0).claim(registry)
  peer('primary').claim(registry)
  assert.equal(registered, ['vf:2', 'nfv:0', 'primary'])
  assert.equal(registry.list(), [
    { type: 'primary' },
    { type: 'nfv', 'client-id': 0 },
    { type: 'vf', 'client-id': 2 },
  ])
})

test('a secondary is found only under its own kind', () => {
  const registry = new Registry()
  const nfv1 = peer('nfv', 1)
  nfv1.claim(registry)
  assert.is(reached(registry, nfv1.id), nfv1.link.peer)
  assert.throws(() => registry.find({ kind: 'vf', clientId: 1 }), /sec_id 1 not found\./)
  assert.throws(() => registry.find({ kind: 'primary' }), /primary not found\./)
})

test('a claim on a served id: the claimant waits while the served one answers, and follows it', async () => {
  const registry = new Registry()
  const served = peer('nfv', 1)
  const claimant = peer('nfv', 1)
  const conflicts: string[] = []
  registry.on('conflict', (_, c) => conflicts.push(c.describe().peer))
  served.claim(registry)
  claimant.claim(registry)
  assert.equal(conflicts, [claimant.link.peer])
  assert.equal(served.link.written, ['_get_client_id', 'status'], 'the served one is asked')
  served.link.reply(IDLE)
  await flush()
  assert.is(reached(registry, served.id), served.link.peer, 'it answered: it stays served')
  assert.equal(claimant.link.state(), 'ready', 'the claimant is left connected')
  registry.unregister(served.link.actor)
  assert.is(reached(registry, served.id), claimant.link.peer, 'served once the other has gone')
})

test('a served connection that does not answer while its id is claimed is closed, and the claimant takes over', async () => {
  const registry = new Registry()
  const served = peer('nfv', 1)
  const claimant = peer('nfv', 1)
  served.claim(registry)
  claimant.claim(registry)
  served.link.clock.increment(1000) // its reply timeout
  await flush()
  assert.is(served.link.actor.getSnapshot().status, 'done', 'closed')
  registry.unregister(served.link.actor) // as the listener does when a connection ends
  assert.is(reached(registry, served.id), claimant.link.peer)
})

test('a claim on an id whose connection has closed replaces it at once', () => {
  const registry = new Registry()
  const old = peer('nfv', 1)
  old.claim(registry)
  old.link.close()
  const fresh = peer('nfv', 1)
  const replaced: (string | undefined)[] = []
  registry.on('registered', (_, r) => replaced.push(r?.describe().peer))
  fresh.claim(registry)
  assert.equal(replaced, [old.link.peer])
  assert.is(reached(registry, fresh.id), fresh.link.peer)
})

test('held commands are sent to the same process when it comes back', async () => {
  const registry = new Registry()
  const { job, promise } = createJob(nfv.forward())
  registry.hold({ kind: 'nfv', clientId: 1 }, [job], 60_000)
  const back = peer('nfv', 1)
  back.claim(registry)
  assert.equal(back.link.written, ['_get_client_id', 'forward'])
  back.link.reply('forward')
  assert.is(await outcome(promise), 'ok')
})

test('held commands fail when another kind takes the id, or when its deadline passes', async () => {
  const registry = new Registry()
  const taken = createJob(nfv.forward())
  registry.hold({ kind: 'nfv', clientId: 1 }, [taken.job], 60_000)
  const vf = peer('vf', 1)
  vf.claim(registry)
  assert.equal(vf.link.written, ['_get_client_id'], 'nothing sent to the vf')
  assert.is(await settled(taken.promise), 'PROCESS_UNAVAILABLE not sent: vf:1 took over the id')
  const late = createJob(nfv.stop())
  registry.hold({ kind: 'nfv', clientId: 2 }, [late.job], 1) // fails on its own: nothing to wait for
  assert.is(
    await outcome(late.promise),
    'PROCESS_UNAVAILABLE not sent: nfv:2 disconnected and did not come back within 1 ms',
  )
})

test('commands held twice for one process wait together: sent together, or failed together', async () => {
  const registry = new Registry()
  const first = createJob(nfv.forward())
  const second = createJob(nfv.stop())
  registry.hold({ kind: 'nfv', clientId: 1 }, [first.job], 60_000)
  registry.hold({ kind: 'nfv', clientId: 1 }, [second.job], 60_000)
  const back = peer('nfv', 1)
  back.claim(registry)
  assert.equal(back.link.written, ['_get_client_id', 'forward'])
  back.link.reply('forward')
  assert.is(await outcome(first.promise), 'ok')
  assert.equal(back.link.written, ['_get_client_id', 'forward', 'stop'])
  const a = createJob(nfv.forward())
  const b = createJob(nfv.stop())
  registry.hold({ kind: 'nfv', clientId: 3 }, [a.job], 1)
  registry.hold({ kind: 'nfv', clientId: 3 }, [b.job], 1)
  const gone = 'PROCESS_UNAVAILABLE not sent: nfv:3 disconnected and did not come back within 1 ms'
  assert.equal(await Promise.all([outcome(a.promise), outcome(b.promise)]), [gone, gone])
})

test("one slot, two kinds: commands held for vf:1 after nfv:1's are refused for nfv:1 at once, vf:1's at their own deadline", async () => {
  const registry = new Registry()
  const nfvJob = createJob(nfv.forward())
  registry.hold({ kind: 'nfv', clientId: 1 }, [nfvJob.job], 60_000)
  const vfJob = createJob(nfv.stop())
  registry.hold({ kind: 'vf', clientId: 1 }, [vfJob.job], 1)
  assert.is(await outcome(nfvJob.promise), 'PROCESS_UNAVAILABLE not sent: vf:1 took over the id')
  assert.is(
    await outcome(vfJob.promise),
    'PROCESS_UNAVAILABLE not sent: vf:1 disconnected and did not come back within 1 ms',
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

test('a listener of the change stream that throws drops that connection; the others still hear', async () => {
  const registry = new Registry()
  const nfv1 = peer('nfv', 1)
  nfv1.claim(registry)
  const heard: string[] = []
  const faults: string[] = []
  registry.changes(() => {
    throw new Error('listener fault')
  })
  registry.changes((settled) => heard.push(settled.line))
  registry.on('fault', (process, error) => faults.push(`${idText(process.id)} ${String(error)}`))
  void registry.find(nfv1.id).ask(nfv.forward())
  nfv1.link.reply(fixedReply('forward'))
  await flush()
  assert.equal(heard, ['forward'])
  assert.equal(faults, ['nfv:1 Error: listener fault'])
  assert.is(nfv1.link.actor.getSnapshot().status, 'done', 'its connection was closed')
})

test.run()
