// POST /v1/topology/apply of a 2020 primary's forwarder and pipes, against the 2020 simulator.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness, type Harness } from '../helpers/harness.ts'

const ERA_2020 = { sim: { era: '2020' as const } }
const PROCESSES = [{ kind: 'primary' as const }, { kind: 'nfv' as const, clientId: 1 }]

/** The primary forwards phy:0 to its ring:0 and pipe:0 (over rings 1 and 2) to phy:1; nfv 1 runs. */
const CHAIN = {
  primary: {
    forwarder: {
      status: 'Running',
      ports: ['phy:0', 'phy:1', 'ring:0', 'pipe:0'],
      patches: [
        { src: 'phy:0', dst: 'ring:0' },
        { src: 'pipe:0', dst: 'phy:1' },
      ],
    },
    pipes: [{ id: 0, rx: 1, tx: 2 }],
  },
  nfvs: { '1': { status: 'Running', ports: ['phy:0', 'phy:1', 'ring:3'] } },
}

/** Applies a document; answers the commands each process received for it, status reads aside. */
async function apply(h: Harness, document: object) {
  const before = h.sims.map((sim) => commandsOf(sim).length)
  const applied = await h.api('POST', '/v1/topology/apply', document)
  assert.is(applied.status, 200, applied.text)
  return Object.fromEntries(
    h.sims.map((sim, i) => [
      sim.label,
      commandsOf(sim)
        .slice(before[i])
        .filter((line) => line !== 'status'),
    ]),
  )
}

const statusOf = async (h: Harness) => {
  const r = await h.api('GET', '/v1/primary/status')
  assert.is(r.status, 200, r.text)
  return r.json() as { forwarder: object; pipes: object[] }
}

test("apply brings the primary's forwarder to the document; applied again, it sends nothing", () =>
  withHarness(
    PROCESSES,
    async (h) => {
      assert.equal(await apply(h, CHAIN), {
        primary: [
          'add ring:0',
          'add pipe:0 ring:1 ring:2',
          'patch phy:0 ring:0',
          'patch pipe:0 phy:1',
          'forward',
        ],
        'nfv 1': ['add ring:3', 'forward'],
      })
      const status = await statusOf(h)
      assert.equal(status.forwarder, {
        status: 'running',
        ports: ['phy:0', 'phy:1', 'ring:0', 'pipe:0'],
        patches: [
          { src: 'phy:0', dst: 'ring:0' },
          { src: 'pipe:0', dst: 'phy:1' },
        ],
      })
      assert.equal(status.pipes, [{ id: 0, rx: 1, tx: 2 }])
      assert.equal(await apply(h, CHAIN), { primary: [], 'nfv 1': [] })
    },
    ERA_2020,
  ))

test('a pipe over other rings and an Idle forwarder: stop, reset, delete, add, patch again', () =>
  withHarness(
    PROCESSES,
    async (h) => {
      await apply(h, CHAIN)
      const moved = {
        primary: {
          forwarder: { status: 'Idle', ports: ['phy:0', 'phy:1', 'pipe:0'] },
          pipes: [{ id: 0, rx: 3, tx: 1 }],
        },
      }
      assert.equal(await apply(h, moved), {
        primary: [
          'stop',
          'patch reset',
          'del ring:0',
          'del pipe:0',
          'add pipe:0 ring:3 ring:1',
          'patch pipe:0 phy:1',
        ],
        'nfv 1': [],
      })
      const status = await statusOf(h)
      assert.equal(status.forwarder, {
        status: 'idling',
        ports: ['phy:0', 'phy:1', 'pipe:0'],
        patches: [{ src: 'pipe:0', dst: 'phy:1' }],
      })
      assert.equal(status.pipes, [{ id: 0, rx: 3, tx: 1 }])
      assert.equal(await apply(h, moved), { primary: [], 'nfv 1': [] })
    },
    ERA_2020,
  ))

test("the topology's ETag follows the forwarder: a plan made before another change is refused", () =>
  withHarness(
    PROCESSES,
    async (h) => {
      const planned = await h.api('POST', '/v1/topology/plan', CHAIN)
      assert.is(planned.status, 200, planned.text)
      const etag = planned.headers.get('etag')!
      const shown = await h.api('GET', '/v1/topology', undefined, { 'If-None-Match': etag })
      assert.is(shown.status, 304)
      // Someone else adds a port to the forwarder: the plan above never saw it.
      const added = await h.api('PUT', '/v1/primary/ports', { action: 'add', port: 'ring:1' })
      assert.is(added.status, 204, added.text)
      const read = await h.api('GET', '/v1/topology', undefined, { 'If-None-Match': etag })
      assert.is(read.status, 200)
      const sent = commandsOf(h.sim('primary')).length
      const applied = await h.api('POST', '/v1/topology/apply', CHAIN, { 'If-Match': etag })
      assert.is(applied.status, 412, applied.text)
      assert.equal(
        commandsOf(h.sim('primary'))
          .slice(sent)
          .filter((line) => line !== 'status'),
        [],
      )
    },
    ERA_2020,
  ))

test('an 18.11 primary asked for a forwarder: 422 naming the field, nothing sent', () =>
  withHarness(PROCESSES, async (h) => {
    const r = await h.api('POST', '/v1/topology/apply', CHAIN)
    assert.is(r.status, 422)
    assert.match(r.text, /primary\.forwarder.*SPP 18\.11: it has no forwarder/)
    assert.equal(
      commandsOf(h.sim('primary')).filter((line) => line !== 'status'),
      [],
    )
  }))

test.run()
