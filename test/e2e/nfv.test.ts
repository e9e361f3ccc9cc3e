import { once } from 'node:events'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { NfvModel } from '../../src/sim/nfv-model.ts'
import { commandsOf, withHarness } from '../helpers/harness.ts'

const NFV = [{ kind: 'nfv' as const, clientId: 1 }]

test('GET /v1/nfvs/1 sends status and answers the spec shape with Idle', () =>
  withHarness(NFV, async (h) => {
    const r = await h.api('GET', '/v1/nfvs/1')
    assert.is(r.status, 200)
    assert.is(r.type, 'application/json')
    assert.equal(r.json(), {
      'client-id': 1,
      status: 'Idle',
      ports: ['phy:0', 'phy:1'],
      patches: [],
    })
    assert.equal(commandsOf(h.sim('nfv 1')), ['status'])
  }))

test('every nfv operation sends its exact command and answers 204 with no body', () =>
  withHarness(NFV, async (h) => {
    const steps: [string, string, unknown, string][] = [
      ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }, 'add ring:0'],
      ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'vhost:1' }, 'add vhost:1'],
      ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }, 'patch phy:0 ring:0'],
      ['PUT', '/v1/nfvs/1/patches', { src: 'ring:0', dst: 'vhost:1' }, 'patch ring:0 vhost:1'],
      ['PUT', '/v1/nfvs/1/forward', { action: 'start' }, 'forward'],
      ['PUT', '/v1/nfvs/1/forward', { action: 'stop' }, 'stop'],
      // Patches first: deleting a port another is patched to is refused (state/hazards.ts).
      ['DELETE', '/v1/nfvs/1/patches', undefined, 'patch reset'],
      ['PUT', '/v1/nfvs/1/ports', { action: 'del', port: 'vhost:1' }, 'del vhost:1'],
    ]
    for (const [method, path, body, command] of steps) {
      const r = await h.api(method, path, body)
      assert.is(r.status, 204, `${method} ${path} ${JSON.stringify(body)}: ${r.text}`)
      assert.is(r.text, '')
      assert.is(commandsOf(h.sim('nfv 1')).at(-1), command)
    }
    // and one status read: the first patch is checked against the ports the nfv lists.
    assert.is(commandsOf(h.sim('nfv 1')).length, steps.length + 1)
  }))

test('the status reflects what the process did: ports, patches, Running', () =>
  withHarness(NFV, async (h) => {
    await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
    await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' })
    await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
    assert.equal((await h.api('GET', '/v1/nfvs/1')).json(), {
      'client-id': 1,
      status: 'Running',
      ports: ['phy:0', 'phy:1', 'ring:0'],
      patches: [{ src: 'phy:0', dst: 'ring:0' }],
    })
    assert.ok((h.sim('nfv 1').model as NfvModel).running)
  }))

test('request bodies are JSON whatever the Content-Type says', () =>
  withHarness(NFV, async (h) => {
    const body = JSON.stringify({ action: 'add', port: 'ring:1' })
    for (const headers of [
      { 'content-type': 'application/json' },
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/json; charset=utf-8' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ]) {
      assert.is(
        (await h.api('PUT', '/v1/nfvs/1/ports', body, headers)).status,
        204,
        JSON.stringify(headers),
      )
    }
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/ports', new TextEncoder().encode(body))).status,
      204,
      'no content type',
    )
    assert.equal(commandsOf(h.sim('nfv 1')), Array(5).fill('add ring:1'))
  }))

test('DELETE /v1/nfvs/1 sends exit; the process is gone from the registry by the time of the 204', () =>
  withHarness(NFV, async (h) => {
    const disconnected = once(h.sim('nfv 1'), 'disconnected')
    assert.is((await h.api('DELETE', '/v1/nfvs/1')).status, 204)
    assert.equal(commandsOf(h.sim('nfv 1')), ['exit'])
    assert.equal((await h.api('GET', '/v1/processes')).json(), [])
    assert.is((await h.api('GET', '/v1/nfvs/1')).status, 404)
    await disconnected
  }))

/** A harness where each GET is a status read of its own (no --status-max-age sharing). */
const readingEach: typeof withHarness = (specs, body, options) =>
  withHarness(specs, body, { ...options, statusMaxAgeMs: 0 })

test('primary: status, clear and exit', () => {
  // Packets arrive on phy:0 and move by the test's clock; nfv 1 takes them once it forwards.
  let now = 0
  const traffic = { sources: { 'phy:0': 100 }, clock: () => now }
  return readingEach(
    [{ kind: 'primary' }, ...NFV],
    async (h) => {
      const first = await h.api('GET', '/v1/primary/status')
      assert.is(first.status, 200)
      const status = first.json() as {
        phy_ports: { id: number; eth: string; rx: number }[]
        ring_ports: unknown[]
      }
      assert.equal(
        status.phy_ports.map((p) => [p.id, p.eth, p.rx]),
        [
          [0, '56:48:4f:53:54:00', 0],
          [1, '56:48:4f:53:54:01', 0],
        ],
      )
      assert.is(status.ring_ports.length, 4)
      await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'phy:1' })
      await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
      now += 2000
      const grown = (await h.api('GET', '/v1/primary/status')).json() as typeof status
      assert.is(grown.phy_ports[0]!.rx, 200, 'what nfv 1 took from phy:0 in 2 s')
      assert.is((await h.api('DELETE', '/v1/primary/status')).status, 204)
      const cleared = (await h.api('GET', '/v1/primary/status')).json() as typeof status
      assert.is(cleared.phy_ports[0]!.rx, 0)
      assert.is((await h.api('DELETE', '/v1/primary')).status, 204)
      assert.equal(commandsOf(h.sim('primary')), ['status', 'status', 'clear', 'status', 'exit'])
      const gone = await h.api('GET', '/v1/primary/status')
      assert.is(gone.status, 404)
      assert.is(gone.text, 'primary not found.\nNo primary is connected; connected: nfv:1\n')
    },
    { sim: { traffic } },
  )
})

test('no primary connected: every primary endpoint is a 404', () =>
  withHarness([], async (h) => {
    for (const [method, path] of [
      ['GET', '/v1/primary/status'],
      ['DELETE', '/v1/primary/status'],
      ['DELETE', '/v1/primary'],
    ] as const) {
      const r = await h.api(method, path)
      assert.is(r.status, 404)
      assert.is(r.text, 'primary not found.\nNo primary is connected; connected: none\n')
    }
  }))

test.run()
