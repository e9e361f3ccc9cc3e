import { once } from 'node:events'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness } from '../helpers/harness.ts'

test('GET /v1/processes lists every identified process, mirror included, without touching any', () =>
  withHarness(
    [
      { kind: 'primary' },
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2 },
      { kind: 'mirror', clientId: 3 },
    ],
    async (h) => {
      const r = await h.api('GET', '/v1/processes')
      assert.is(r.status, 200)
      assert.is(r.type, 'application/json')
      assert.equal(r.json(), [
        { type: 'primary' },
        { type: 'nfv', 'client-id': 1 },
        { type: 'vf', 'client-id': 2 },
        { type: 'mirror', 'client-id': 3 },
      ])
      for (const sim of h.sims) assert.equal(commandsOf(sim), [], sim.label)
    },
  ))

test('a secondary with client id 0 does not replace the primary', () =>
  withHarness([{ kind: 'primary' }, { kind: 'vf', clientId: 0 }], async (h) => {
    assert.equal((await h.api('GET', '/v1/processes')).json(), [
      { type: 'primary' },
      { type: 'vf', 'client-id': 0 },
    ])
    assert.is((await h.api('GET', '/v1/primary/status')).status, 200)
    assert.is((await h.api('GET', '/v1/vfs/0')).status, 200)
  }))

test('a process whose socket closes is forgotten at once: the next request is a 404', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'nfv', clientId: 2 },
    ],
    async (h) => {
      const removed = once(h.controller.registry, 'removed')
      h.sim('nfv 1').stop()
      await removed
      const r = await h.api('GET', '/v1/nfvs/1')
      assert.is(r.status, 404)
      assert.is(
        r.text,
        'sec_id 1 not found.\nNo nfv with client id 1 is connected; connected: nfv:2\n',
      )
      assert.equal((await h.api('GET', '/v1/processes')).json(), [{ type: 'nfv', 'client-id': 2 }])
    },
  ))

test('a claimant replaces a served connection that does not answer; nothing is re-sent', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const old = h.sim('nfv 1')
      old.hold() // the old process holds its reply, never released
      const pending = h.api('GET', '/v1/nfvs/1')
      await once(old, 'command')
      const disconnected = once(old, 'disconnected')
      const [fresh] = await h.connect([{ kind: 'nfv', clientId: 1 }])
      const r = await pending
      assert.is(r.status, 500)
      assert.match(r.text, /no reply within 300 ms/)
      await disconnected
      assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
      assert.equal(commandsOf(fresh!), ['status'])
      assert.equal(commandsOf(old), ['status'], 'the probe of the silent one was never written')
    },
    { commandTimeoutMs: 300 },
  ))

test('a silent peer in its handshake does not delay the registration of another process', () =>
  withHarness(
    [],
    async (h) => {
      const [silent] = await h.spawn([{ kind: 'nfv', clientId: 9 }], {
        faults: { silentHandshake: true },
      })
      let silentDropped = false
      silent!.on('disconnected', () => (silentDropped = true))
      await once(silent!, 'command') // it has been asked for its id, and stays silent
      await h.connect([{ kind: 'nfv', clientId: 2 }])
      assert.equal((await h.api('GET', '/v1/processes')).json(), [{ type: 'nfv', 'client-id': 2 }])
      assert.is(silentDropped, false, 'the silent peer is still waiting for its handshake timeout')
    },
    { commandTimeoutMs: 60_000 },
  ))

test.run()
