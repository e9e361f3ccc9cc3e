import { once } from 'node:events'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Faults } from '../../src/sim/faults.ts'
import { commandsOf, registrations, withHarness, type Harness } from '../helpers/harness.ts'

// A short command timeout keeps these quick; the simulated processes reconnect as SPP's do.
const T = 400
const OPTIONS = { commandTimeoutMs: T, sim: { reconnect: true } }
/** Resolves once `condition` holds, looking again after each turn of the event loop. */
async function until(condition: () => boolean) {
  for (let turns = 0; !condition(); turns++) {
    if (turns > 100_000) throw new Error('never came true') // a failsafe, not a timing
    await new Promise((resolve) => setImmediate(resolve))
  }
}
const queued = (h: Harness, clientId: number) =>
  h.controller.registry.find({ kind: 'nfv', clientId }).describe().queueDepth
const NFVS = [
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'nfv' as const, clientId: 2 },
]
const VFS = [
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'nfv' as const, clientId: 1 },
]

/** Runs one faulty exchange, checks its 500, then clears the fault and proves the process healthy. */
async function faultThenHealthy(
  h: Harness,
  label: string,
  faults: Faults,
  path: string,
  expected: RegExp,
  reconnects: boolean,
) {
  const sim = h.sim(label)
  sim.faults = faults
  const reregistered = reconnects ? registrations(h.controller, 1) : Promise.resolve()
  const r = await h.api('GET', path)
  assert.is(r.status, 500, `${JSON.stringify(faults)}: ${r.text}`)
  assert.match(r.type!, /^text\/plain/)
  assert.match(r.text, expected)
  sim.faults = {}
  await reregistered
  const ok = await h.api('GET', path)
  assert.is(ok.status, 200, `after ${JSON.stringify(faults)}: ${ok.text}`)
}

test('a reply held past the timeout is a 500; the other processes are served meanwhile', () =>
  withHarness(
    NFVS,
    async (h) => {
      h.sim('nfv 1').hold() // never released: the reply stays held past the timeout
      const stuck = h.api('GET', '/v1/nfvs/1')
      await once(h.sim('nfv 1'), 'command')
      assert.is(
        (await h.api('GET', '/v1/nfvs/2')).status,
        200,
        'nfv 2 is served while nfv 1 is silent',
      )
      const r = await stuck
      assert.is(r.status, 500)
      assert.match(r.text, new RegExp(`no reply within ${T} ms`))
    },
    OPTIONS,
  ))

test('a reply held until the test releases it is simply the answer', () =>
  withHarness(
    NFVS,
    async (h) => {
      const sim = h.sim('nfv 1')
      const release = sim.hold()
      const pending = h.api('GET', '/v1/nfvs/1')
      await once(sim, 'command')
      release()
      const r = await pending
      assert.is(r.status, 200)
      assert.equal((r.json() as { 'client-id': number })['client-id'], 1)
    },
    OPTIONS,
  ))

test('a late reply is discarded, and the commands after it get their own replies', () =>
  withHarness(
    NFVS,
    async (h) => {
      const sim = h.sim('nfv 1')
      const release = sim.hold() // the status reply stays on its way until released
      const first = await h.api('GET', '/v1/nfvs/1')
      assert.is(first.status, 500)
      assert.match(first.text, /no reply within/)
      // Queued while the late status reply is still on its way: it must not be taken as this
      // answer, or the echo of `add` would then be read as the answer to the next status.
      const add = h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
      await until(() => queued(h, 1) === 1)
      release()
      assert.is((await add).status, 204)
      const status = await h.api('GET', '/v1/nfvs/1')
      assert.is(status.status, 200, status.text)
      assert.equal((status.json() as { ports: string[] }).ports, ['phy:0', 'phy:1', 'ring:0'])
      assert.equal(commandsOf(sim), ['status', 'add ring:0', 'status'])
      assert.equal(
        sim.received.filter((l) => l === '_get_client_id'),
        ['_get_client_id'],
        'the late reply was read on the same connection, not dropped with it',
      )
    },
    OPTIONS,
  ))

test('a command never answered: 500, the connection is dropped, the process reconnects and is served', () =>
  withHarness(
    NFVS,
    (h) => faultThenHealthy(h, 'nfv 1', { silentAt: 1 }, '/v1/nfvs/1', /no reply within/, true),
    OPTIONS,
  ))

test('a short garbage reply (nfv): 500, then a clean reconnect', () =>
  withHarness(
    NFVS,
    (h) => faultThenHealthy(h, 'nfv 1', { garbageAt: 1 }, '/v1/nfvs/1', /no reply within/, true),
    OPTIONS,
  ))

test('a garbage reply (vf): 500 naming the protocol error, then a clean reconnect', () =>
  withHarness(
    VFS,
    (h) =>
      faultThenHealthy(
        h,
        'vf 2',
        { garbageAt: 1 },
        '/v1/vfs/2',
        /protocol error: reply is not a JSON object/,
        true,
      ),
    OPTIONS,
  ))

test('the process closing its socket mid-command: 500 naming it, then served after reconnecting', () =>
  withHarness(
    NFVS,
    (h) =>
      faultThenHealthy(
        h,
        'nfv 1',
        { closeAt: 1 },
        '/v1/nfvs/1',
        /closed: the process closed the connection/,
        true,
      ),
    OPTIONS,
  ))

test('an endless reply (vf): the connection is dropped at the size cap, then served after reconnecting', () =>
  withHarness(
    VFS,
    (h) =>
      faultThenHealthy(
        h,
        'vf 2',
        { endlessAt: 1 },
        '/v1/vfs/2',
        /reply exceeds 1048576 bytes/,
        true,
      ),
    { ...OPTIONS, maxReplyBytes: 1 << 20 },
  ))

test('an endless reply (nfv): the extra frames are a protocol error that drops the connection', () =>
  withHarness(
    NFVS,
    (h) =>
      faultThenHealthy(
        h,
        'nfv 1',
        { endlessAt: 1 },
        '/v1/nfvs/1',
        /unexpected nfv status reply|reply is not valid JSON|bytes of NUL padding without a reply/,
        true,
      ),
    OPTIONS,
  ))

test('status replies of many kilobytes, and replies in many small writes, are read whole', () =>
  withHarness(
    VFS,
    async (h) => {
      await h.api('POST', '/v1/vfs/2/components', { name: 'fw1', core: 2, type: 'forward' })
      h.sim('vf 2').faults = { padStatusBytes: 300 * 1024, splitWrites: 97 }
      h.sim('nfv 1').faults = { splitWrites: 301 }
      for (let i = 0; i < 3; i++) {
        const vf = await h.api('GET', '/v1/vfs/2')
        assert.is(vf.status, 200)
        assert.equal((vf.json() as { components: { name?: string }[] }).components[0]!.name, 'fw1')
        assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
      }
    },
    OPTIONS,
  ))

test('a reply over the size cap drops the connection instead of growing memory', () =>
  withHarness(
    VFS,
    (h) =>
      faultThenHealthy(
        h,
        'vf 2',
        { padStatusBytes: 256 * 1024 },
        '/v1/vfs/2',
        /reply exceeds 65536 bytes/,
        true,
      ),
    { ...OPTIONS, maxReplyBytes: 64 * 1024 },
  ))

test('a peer that never answers the handshake is dropped after the timeout and never listed', () =>
  withHarness(
    NFVS,
    async (h) => {
      const [silent] = await h.spawn([{ kind: 'nfv', clientId: 7 }], {
        faults: { silentHandshake: true },
        reconnect: false,
      })
      await once(silent!, 'disconnected')
      assert.equal((await h.api('GET', '/v1/processes')).json(), [
        { type: 'nfv', 'client-id': 1 },
        { type: 'nfv', 'client-id': 2 },
      ])
    },
    OPTIONS,
  ))

test.run()
