// Apply never sends into a ring nobody reads, seen in the packets: the chain of issue 42 applied
// over loopback to the simulator with packets arriving on phy:0, the vf reading its socket once a
// second as SPP's does, and time running. ring:0 drops nothing while the chain is built and torn
// down; built (and torn down) in the other order, as single requests, it drops.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEventStream } from '../../src/cli/sse-client.ts'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { withHarness, type Harness } from '../helpers/harness.ts'
import { PRIMARY_NFV_VF } from '../helpers/chain.ts'

const NFV = {
  status: 'Running',
  ports: ['phy:0', 'phy:1', 'ring:0'],
  patches: [{ src: 'phy:0', dst: 'ring:0' }],
}
const FWD1 = {
  name: 'fwd1',
  core: 2,
  type: 'forward',
  rx_port: [{ port: 'ring:0' }],
  tx_port: [{ port: 'phy:1' }],
}
const CHAIN = { nfvs: { '1': NFV }, vfs: { '2': { components: [FWD1] } } }
const EMPTY = {
  nfvs: { '1': { status: 'Idle', ports: ['phy:0', 'phy:1'], patches: [] } },
  vfs: { '2': { components: [] } },
}

// The real clock, and the vf's real poll: an apply takes the seconds it takes on SPP. 10 000
// packets a second fill ring:0 (127 packets) in 13 ms when nothing reads it.
const OPTIONS = {
  statusMaxAgeMs: 0, // every read of the counters asks the primary
  commandTimeoutMs: 5000,
  sim: { pollMs: 1000, traffic: { sources: { 'phy:0': 10_000 } } },
}

type Ring = { id: number; tx: number; tx_drop: number }
/** ring:0's counters, as the primary shows them now. */
async function ring0(h: Harness): Promise<Ring> {
  const status = (await h.api('GET', '/v1/primary/status')).json() as { ring_ports: Ring[] }
  return status.ring_ports.find((r) => r.id === 0)!
}

/**
 * Runs `work` while reading ring:0 at each step's end: an apply's (its `apply.step` events, up to
 * its `apply.done`), or each single request's (`read`).
 */
async function watched(h: Harness, work: (read: () => void) => Promise<void>, apply = true) {
  const reads: Promise<Ring>[] = []
  const read = () => void reads.push(ring0(h))
  const abort = new AbortController()
  const failsafe = setTimeout(() => abort.abort(), 30_000) // fails a missing event, never times one
  const stream = await openEventStream(`http://127.0.0.1:${h.controller.apiPort}`, abort.signal)
  const seen = (async () => {
    for await (const e of stream) {
      if (e.event === 'apply.step') read()
      if (e.event === 'apply.done' || e.event === 'apply.failed') return
    }
  })().catch(() => undefined)
  try {
    await work(read)
    if (apply) await seen
  } finally {
    clearTimeout(failsafe)
    abort.abort()
    await seen
  }
  return Promise.all(reads)
}

/** Resolves once `sim` has answered `line` (its reply written, or held). */
const answered = (sim: SimProcess, line: string) =>
  new Promise<void>((resolve) => {
    const on = (got: string) => got === line && (sim.off('answered', on), resolve())
    sim.on('answered', on)
  })

/** What ring:0 shows after one more second of traffic: a read of the vf takes one poll. */
async function later(h: Harness) {
  assert.is((await h.api('GET', '/v1/vfs/2')).status, 200)
  return ring0(h)
}

test('applied, the chain drops nothing at ring:0: while it is built, after, and torn down', () =>
  withHarness(
    PRIMARY_NFV_VF,
    async (h) => {
      const during = await watched(h, async () => {
        const applied = await h.api('POST', '/v1/topology/apply', CHAIN)
        assert.is(applied.status, 200, applied.text)
      })
      assert.is(during.length, 6)
      const built = await ring0(h)
      const after = await later(h)
      assert.ok(
        after.tx > built.tx + 127,
        `packets flow through ring:0: ${built.tx} -> ${after.tx}`,
      )
      assert.equal(
        [...during, built, after].map((r) => r.tx_drop),
        [0, 0, 0, 0, 0, 0, 0, 0],
      )
      // Tearing down, the nfv is busy as it begins (a client's status read, its reply held), so
      // its stop waits in its queue: the vf must not stop reading ring:0 meanwhile. A read of the
      // vf, queued behind whatever the apply sent it, lets a second pass before the nfv answers.
      const [nfv, vf] = [h.sim('nfv 1'), h.sim('vf 2')]
      const torn = await watched(h, async () => {
        const read = Promise.all([answered(nfv, 'status'), answered(vf, 'status')])
        const applying = h.api('POST', '/v1/topology/apply', EMPTY)
        await answered(nfv, 'status') // the apply's read of the nfv
        const release = nfv.hold()
        const busy = h.api('GET', '/v1/nfvs/1')
        await read // the apply's read of the vf: it plans and begins
        assert.is((await h.api('GET', '/v1/vfs/2')).status, 200)
        release()
        assert.is((await busy).status, 200)
        const applied = await applying
        assert.is(applied.status, 200, applied.text)
      })
      assert.equal(
        [...torn, await later(h)].map((r) => r.tx_drop),
        [0, 0, 0, 0, 0, 0, 0],
      )
    },
    OPTIONS,
  ))

test('built and torn down in the other order (single requests, as SPP’s CLI may), ring:0 drops', () =>
  withHarness(
    PRIMARY_NFV_VF,
    async (h) => {
      const put = async (method: string, path: string, body: object) => {
        const r = await h.api(method, path, body)
        assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
      }
      const component = '/v1/vfs/2/components/fwd1/ports'
      const during = await watched(
        h,
        async (read) => {
          for (const [method, path, body] of [
            ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
            ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
            ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
            ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
            ['PUT', component, { action: 'attach', port: 'phy:1', dir: 'tx' }],
            ['PUT', component, { action: 'attach', port: 'ring:0', dir: 'rx' }],
          ] as const) {
            await put(method, path, body)
            read()
          }
        },
        false,
      )
      const built = during.at(-1)!
      assert.ok(
        built.tx_drop > 0,
        `the nfv sent into ring:0 before the vf read it: ${built.tx_drop}`,
      )
      const after = await later(h)
      assert.is(after.tx_drop, built.tx_drop, 'once read, ring:0 drops no more')
      await put('PUT', component, { action: 'detach', port: 'ring:0', dir: 'rx' })
      await put('PUT', component, { action: 'detach', port: 'phy:1', dir: 'tx' })
      await put('DELETE', '/v1/vfs/2/components/fwd1', {})
      await put('PUT', '/v1/nfvs/1/forward', { action: 'stop' })
      const torn = await ring0(h)
      assert.ok(torn.tx_drop > after.tx_drop, `the vf let ring:0 go first: ${torn.tx_drop}`)
    },
    OPTIONS,
  ))

test.run()
