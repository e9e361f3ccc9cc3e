// The topology document for dashboards, over simulated processes on a clock the test moves: built
// once per change, answered at once while fresh, its reads shared.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { StatusReads } from '../../src/observe/status-reads.ts'
import { LiveTopology } from '../../src/topology/live-topology.ts'
import { commandsOf, withHarness, type Harness } from '../helpers/harness.ts'

const PROCESSES = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'nfv' as const, clientId: 2 },
]
const reads = (h: Harness) =>
  ['primary', 'nfv 1', 'nfv 2'].map((label) =>
    h.sims.some((sim) => sim.label === label)
      ? commandsOf(h.sim(label)).filter((line) => line === 'status').length
      : 0,
  )

function liveOf(h: Harness, clock = { now: 0 }) {
  const statusReads = new StatusReads(h.controller.registry, { now: () => clock.now })
  return { clock, live: new LiveTopology(h.controller.registry, statusReads) }
}

test('while its reads are fresh the document is answered at once, as it was built', () =>
  withHarness(PROCESSES, async (h) => {
    const { clock, live } = liveOf(h)
    const [a, b] = await Promise.all([live.current(), live.current()])
    assert.is(b, a, 'readers during a refresh share it')
    assert.equal(reads(h), [1, 1, 1])
    clock.now = 999
    assert.is(live.current(), a, 'no promise, nothing read, nothing built')
    assert.equal(Object.keys(a.document.nfvs), ['1', '2'])
  }))

test('past the bound each process is read again, and a document that shows nothing new is kept', () =>
  withHarness(PROCESSES.slice(1), async (h) => {
    const { clock, live } = liveOf(h)
    const first = await live.current()
    clock.now = 1000
    const second = await live.current()
    assert.equal(reads(h).slice(1), [2, 2])
    assert.is(second.document, first.document, 'built once: nothing changed')
    assert.is(second.etag, first.etag)
    assert.is(second.readAt, 1000)
  }))

test("the primary's counters make a new document, not a new ETag", () => {
  // The simulated packets move by the test's clock: 100 a second arrive on phy:0.
  const clock = { now: 0 }
  const traffic = { sources: { 'phy:0': 100 }, clock: () => clock.now }
  return withHarness(
    PROCESSES,
    async (h) => {
      await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'phy:1' })
      await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
      const { live } = liveOf(h, clock)
      const first = await live.current()
      clock.now = 1000
      const second = await live.current() // nfv 1 took phy:0's packets of that second
      const rx = (doc: typeof first) =>
        (doc.document.primary as { phy_ports: { rx: number }[] }).phy_ports[0]!.rx
      assert.is(rx(second) - rx(first), 100)
      assert.is.not(second.document, first.document)
      assert.is.not(second.document.primary, first.document.primary)
      assert.is(second.document.nfvs['1'], first.document.nfvs['1'], 'what did not change is kept')
      assert.is(second.etag, first.etag)
    },
    { sim: { traffic } },
  )
})

test('a change builds a new document at once, with a new ETag', () =>
  withHarness(PROCESSES, async (h) => {
    const { live } = liveOf(h)
    const first = await live.current()
    const put = await h.api('PUT', '/v1/nfvs/2/ports', { action: 'add', port: 'ring:1' })
    assert.is(put.status, 204)
    const second = await live.current()
    assert.is.not(second.document, first.document)
    assert.is.not(second.etag, first.etag)
    assert.ok(
      (second.document.nfvs['2'] as { ports: string[] }).ports.includes('ring:1'),
      'the change shows',
    )
  }))

test.run()
