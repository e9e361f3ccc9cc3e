// spp_packets_dropped_total: the drops at each port a chain sends into, labelled with its readers,
// scraped from a controller whose simulated processes move packets by the test's clock.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { PathsDocument } from '../../src/topology/path-document.ts'
import { withHarness, type Harness } from '../helpers/harness.ts'

const PROCESSES = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
]

// phy:0 -> nfv:1 -> ring:0 -> vf:2 fwd1 -> phy:1 (the vf slower than phy:0's traffic);
// phy:1 -> nfv:1 -> ring:1, which nothing reads.
const CHAIN: [string, string, object][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:1', dst: 'ring:1' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
]

/** The samples of one metric of a scrape, by their labels as written (`{port="ring:0",...}`). */
async function samples(h: Harness, metric: string): Promise<Map<string, number>> {
  const r = await h.api('GET', '/metrics')
  assert.is(r.status, 200)
  const found = new Map<string, number>()
  for (const [, labels, value] of r.text.matchAll(new RegExp(`^${metric}(\\{.*\\}) (\\S+)$`, 'gm')))
    found.set(labels!, Number(value))
  return found
}

/** The chain built on `era`'s processes, with packets moved for 10 s of the test's clock. */
function withDrops(
  era: '18.11' | '2020',
  body: (h: Harness, paths: PathsDocument) => Promise<void>,
) {
  const clock = { now: 0 }
  const traffic = {
    sources: { 'phy:0': 20_000, 'phy:1': 1000 },
    readerPps: { 'vf:2': 5000 },
    clock: () => clock.now,
  }
  return withHarness(
    PROCESSES,
    async (h) => {
      for (const [method, path, body] of CHAIN) {
        const r = await h.api(method, path, body)
        assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
      }
      assert.is((await h.api('GET', '/v1/topology')).status, 200) // every process read
      clock.now += 10_000
      const r = await h.api('GET', '/v1/topology/paths') // the primary read, 10 s on
      assert.is(r.status, 200)
      await body(h, r.json() as PathsDocument)
    },
    { statusClock: () => clock.now, sim: { traffic, era } },
  )
}

test('each port a chain sends into has its drops, by the port and its readers; 18.11 phy tx_drop is left out', () =>
  withDrops('18.11', async (h, paths) => {
    const dropped = await samples(h, 'spp_packets_dropped_total')
    const ring0 = paths.ports['ring:0']!.tx_drop!.value
    const ring1 = paths.ports['ring:1']!.tx_drop!.value
    assert.ok(ring0 > 0 && ring1 > 0, `ring:0 ${ring0}, ring:1 ${ring1}: both drop`)
    assert.equal(
      Object.fromEntries(dropped),
      {
        '{port="ring:0",reader="vf:2 fwd1"}': ring0,
        '{port="ring:1",reader="none"}': ring1,
      },
      'no phy:1: what 18.11 counts there is lost downstream, not at the port',
    )
    // The port's own counter is still there, as the primary reports it.
    const txDropped = await samples(h, 'spp_port_tx_dropped_total')
    assert.type(txDropped.get('{port="phy:1"}'), 'number')
  }))

test("a 2020 primary's phy tx_drop is the port's own: counted, its reader the link", () =>
  withDrops('2020', async (h, paths) => {
    const dropped = await samples(h, 'spp_packets_dropped_total')
    assert.equal(
      [...dropped.keys()],
      [
        '{port="ring:0",reader="vf:2 fwd1"}',
        '{port="ring:1",reader="none"}',
        '{port="phy:1",reader="link"}',
      ],
    )
    assert.is(dropped.get('{port="phy:1",reader="link"}'), paths.ports['phy:1']!.tx_drop!.value)
    assert.ok(dropped.get('{port="ring:0",reader="vf:2 fwd1"}')! > 0)
  }))

test.run()
