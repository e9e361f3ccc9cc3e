// The topology page in headless Chromium against simulated processes: what it shows and how it follows.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { TrafficOptions } from '../../src/sim/traffic.ts'
import { browserTest, cuttableProxy, withoutPaths, withPage } from '../helpers/browser.ts'
import { withHarness, type Harness } from '../helpers/harness.ts'

const ALL = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]
const base = (h: Harness) => `http://127.0.0.1:${h.controller.apiPort}`
// The README's chain: nfv 1 patches phy:0 to ring:0; in vf 2, cls classifies phy:0 onto ring:0, fwd1 reads it.
const SETUP: [string, string, object][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['POST', '/v1/vfs/2/components', { name: 'cls', core: 2, type: 'classifier_mac' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 3, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/cls/ports', { action: 'attach', port: 'phy:0', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/cls/ports', { action: 'attach', port: 'ring:0', dir: 'tx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
  ],
]
/** Every URL a page loaded is this controller's. */
const onlyController = (h: Harness, requests: string[]) =>
  assert.equal(
    requests.filter((url) => !url.startsWith(`${base(h)}/`)),
    [],
    'requests outside the controller',
  )

browserTest(
  test,
  'the page shows every process, its ports, patches, components and classifier entries',
  () =>
    withHarness(ALL, (h) =>
      withPage(async ({ page, requests, problems }) => {
        for (const [method, path, body] of SETUP)
          assert.is((await h.api(method, path, body)).status, 204, path)
        await page.goto(`${base(h)}/`)
        await page.waitForSelector('[data-process="mirror:3"]')
        const processes = await page.$$eval('[data-process]', (all) =>
          all.map((e) =>
            `${e.getAttribute('data-process')} ${e.getAttribute('data-status') ?? ''}`.trim(),
          ),
        )
        assert.equal(processes, ['primary', 'nfv:1 Idle', 'vf:2', 'mirror:3'])
        const nfv = page.locator('[data-process="nfv:1"]')
        assert.is(await nfv.locator('[data-port="ring:0"]').textContent(), 'ring:0')
        assert.is(await nfv.locator('[data-patch="nfv:1 phy:0 ring:0"]').count(), 1)
        const vf = page.locator('[data-process="vf:2"]')
        assert.match((await vf.locator('[data-component="vf:2 fwd1"]').textContent())!, /rx ring:0/)
        assert.is(await vf.locator('[data-classifier="vf:2 FA:16:3E:7D:CC:35 ring:0"]').count(), 1)
        assert.ok(await page.locator('#counters tr[data-port="phy:0"]').count(), 'counters table')
        assert.ok(await page.locator('#graph canvas').count(), 'the graph is drawn')
        assert.equal(problems, [])
        onlyController(h, requests)
      }),
    ),
)

browserTest(
  test,
  'a patch made through the API appears within a second, without a reload or a needless layout',
  () =>
    withHarness(ALL, (h) =>
      withPage(async ({ page, requests }) => {
        await page.goto(`${base(h)}/`)
        await page.waitForSelector('#connection[data-connection="live"]')
        await page.waitForSelector('[data-process="nfv:1"]')
        await page.evaluate(() => Object.assign(window, { notReloaded: true }))
        const layouts = () => page.getAttribute('#graph', 'data-layouts').then(Number)
        const before = await layouts()
        await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'phy:1' })
        await page.waitForSelector('[data-patch="nfv:1 phy:0 phy:1"]', { timeout: 1000 })
        assert.is(await layouts(), before + 1, 'a new edge is laid out')
        await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
        await page.waitForSelector('[data-process="nfv:1"][data-status="Running"]', {
          timeout: 1000,
        })
        assert.is(await layouts(), before + 1, 'Idle -> Running restyles without a new layout')
        assert.ok(await page.evaluate(() => 'notReloaded' in window), 'the page was not reloaded')
        assert.is(requests.filter((url) => url === `${base(h)}/`).length, 1)
        onlyController(h, requests)
      }),
    ),
)

browserTest(test, 'a process that exits disappears, and returns when it connects again', () =>
  withHarness(ALL, (h) =>
    withPage(async ({ page }) => {
      await page.goto(`${base(h)}/`)
      await page.waitForSelector('#connection[data-connection="live"]')
      await page.waitForSelector('[data-process="nfv:1"]')
      await h.api('DELETE', '/v1/nfvs/1')
      await page.waitForSelector('[data-process="nfv:1"]', { state: 'detached' })
      assert.is(await page.locator('[data-process="vf:2"]').count(), 1, 'the others stay')
      await h.connect([{ kind: 'nfv', clientId: 1 }])
      await page.waitForSelector('[data-process="nfv:1"][data-status="Idle"]')
    }),
  ),
)

browserTest(
  test,
  'when the event stream drops the page says so, reconnects with Last-Event-ID and catches up',
  () =>
    withHarness(ALL, (h) =>
      withPage(async ({ page }) => {
        const proxy = await cuttableProxy(h.controller.apiPort)
        try {
          const lastEventIds: Promise<string | undefined>[] = []
          page.on('request', (request) => {
            if (new URL(request.url()).pathname === '/v1/events')
              lastEventIds.push(request.allHeaders().then((headers) => headers['last-event-id']))
          })
          await page.goto(`http://127.0.0.1:${proxy.port}/`)
          await page.waitForSelector('#connection[data-connection="live"]')
          await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' })
          await page.waitForSelector('[data-process="nfv:1"] [data-port="ring:1"]')
          proxy.down()
          await page.waitForSelector('#connection[data-connection="reconnecting"]')
          assert.match((await page.textContent('#connection'))!, /reconnecting/i)
          await h.api('PUT', '/v1/nfvs/1/patches', { src: 'ring:1', dst: 'phy:1' })
          proxy.up()
          await page.waitForSelector('#connection[data-connection="live"]')
          await page.waitForSelector('[data-patch="nfv:1 ring:1 phy:1"]')
          const ids = await Promise.all(lastEventIds)
          assert.is(ids[0], undefined)
          assert.match(ids.at(-1) ?? '', /^\d+$/, 'the reconnection says where it left off')
        } finally {
          await proxy.close()
        }
      }),
    ),
)

// The next three tests: a controller that pushes no rates (the page here follows the rates the
// controller pushes: ui-page-rates.test.ts), whose counters the page reads every 2 s itself.
// The test moves the page's clock; the controller's status clock stands still: each period's
// read is one of its own (no --status-max-age sharing), 0 ms old when answered. The simulated
// packets move by a clock of the test's too, 2 s per period, as the page's does.
const readingEach = (
  specs: Parameters<typeof withHarness>[0],
  body: Parameters<typeof withHarness>[1],
  traffic: TrafficOptions,
) =>
  withHarness(specs, body, {
    statusMaxAgeMs: 0,
    statusClock: () => 0,
    sim: { traffic },
  })

// nfv 1 patches phy:0 to ring:0 and phy:1 to ring:1; vf 2's fwd1 and fwd2 read them.
const FLOWING: [string, string, object?][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:1', dst: 'ring:1' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd2', core: 3, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
  ['PUT', '/v1/vfs/2/components/fwd2/ports', { action: 'attach', port: 'ring:1', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd2/ports', { action: 'attach', port: 'phy:0', dir: 'tx' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
]

browserTest(
  test,
  'without pushed rates, the counters show packets per second from successive reads, a sparkline, and drops that grow',
  () => {
    const sim = { now: 0 }
    const traffic = { sources: { 'phy:0': 500, 'phy:1': 1000 }, clock: () => sim.now }
    return readingEach(
      ALL,
      (h) =>
        withPage(async ({ page, requests, problems }) => {
          for (const [method, path, body] of FLOWING)
            assert.is((await h.api(method, path, body)).status, 204, path)
          // The page's clock stands still but when the test moves it: each period's read is then
          // exactly 2 s after the one before, and 2 s of packets have moved in the simulator.
          await withoutPaths(page)
          await page.clock.install({ time: 0 })
          await page.clock.pauseAt(1000)
          await page.goto(`${base(h)}/`)
          const row = (port: string) => `#counters tr[data-port="${port}"]`
          const cell = (port: string, hook: string) => page.locator(`${row(port)} td[${hook}]`)
          const growing = (port: string) =>
            cell(port, 'data-counter="tx_drop"').getAttribute('data-growing')
          await page.waitForSelector(row('ring:3'))
          assert.is(await cell('phy:0', 'data-rate="rx"').textContent(), '…', 'one read: no rate')
          /** One period: 2 s more of packets, the page's next read, and `shown` on the page. */
          const period = async (shown: string) => {
            sim.now += 2000
            await page.clock.runFor(2000)
            await page.waitForSelector(shown)
          }
          const rate = (port: string, key: string, text: string) =>
            `${row(port)} td[data-rate="${key}"]:text-is("${text}")`
          const drops = (port: string, text: string) =>
            `${row(port)} td[data-counter="tx_drop"][data-growing="${text}"]`
          await period(rate('phy:0', 'rx', '500 pps'))
          assert.is(await cell('phy:1', 'data-rate="rx"').textContent(), '1K pps')
          assert.is(await cell('ring:0', 'data-rate="tx"').textContent(), '500 pps')
          assert.is(await cell('ring:1', 'data-rate="tx"').textContent(), '1K pps')
          // What the vf sends to phy:0 and phy:1 and takes from the rings, SPP does not count.
          assert.is(await cell('phy:1', 'data-rate="tx"').textContent(), '0 pps')
          assert.is(await cell('ring:0', 'data-rate="rx"').textContent(), '0 pps')
          assert.is(await page.locator('[data-growing]').count(), 0, 'no drops yet')

          // Nothing reads ring:0 any more: it fills (127 packets), then drops all that comes.
          assert.is((await h.api('DELETE', '/v1/vfs/2/components/fwd1')).status, 204)
          await period(drops('ring:0', '436.5 pps'))
          await period(drops('ring:0', '500 pps'))
          assert.is(await cell('ring:0', 'data-rate="tx"').textContent(), '0 pps')
          assert.match(
            (await cell('ring:0', 'data-counter="tx_drop"').textContent())!,
            /^1873 \+500 pps$/,
          )
          // 18.11 shows ring:0's drops as phy:0's tx_drop too.
          assert.is(await growing('phy:0'), '500 pps')
          assert.is(await page.locator('[data-growing]').count(), 2)

          assert.is((await h.api('PUT', '/v1/nfvs/1/forward', { action: 'stop' })).status, 204)
          await period(rate('phy:0', 'rx', '0 pps')) // nothing moves: the marks go
          await page.waitForSelector('[data-growing]', { state: 'detached' })
          const chart = page.locator(`${row('phy:1')} svg.sparkline`)
          assert.is(await chart.getAttribute('data-points'), '4', 'one point per interval')
          assert.match(
            (await chart.getAttribute('aria-label'))!,
            /phy:1, last 5 minutes: up to 1K pps/,
          )
          assert.equal(problems, [])
          onlyController(h, requests)
        }),
      traffic,
    )
  },
)

browserTest(test, 'a read another reader made is timed by its age: the rate stays true', () => {
  // Both clocks move together: page time 1000 is the controller's status time 0, and the
  // simulator's packets move by the controller's clock.
  const status = { now: 0 }
  const traffic = { sources: { 'phy:0': 40 }, clock: () => status.now }
  return withHarness(
    ALL,
    (h) =>
      withPage(async ({ page }) => {
        await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
        await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' })
        await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
        await withoutPaths(page)
        await page.clock.install({ time: 0 })
        await page.clock.pauseAt(1000)
        await page.goto(`${base(h)}/`)
        await page.waitForSelector('#counters tr[data-port="phy:0"]') // read at 0
        status.now = 1600
        assert.is((await h.api('GET', '/v1/primary/status')).status, 200) // read at 1600
        status.now = 2000
        await page.clock.runFor(2000) // the page's read at 3000 shares it: 400 ms old
        // phy:0 counted 64 packets between the reads 1.6 s apart (2 s without the age).
        await page.waitForSelector(
          '#counters tr[data-port="phy:0"] td[data-rate="rx"]:text-is("40 pps")',
        )
      }),
    { statusClock: () => status.now, sim: { traffic } },
  )
})

browserTest(test, 'a hidden page reads no counters; shown again, it reads them at once', () =>
  withHarness(ALL, (h) =>
    withPage(async ({ page, requests }) => {
      await withoutPaths(page)
      await page.clock.install({ time: 0 })
      await page.clock.pauseAt(1000)
      await page.goto(`${base(h)}/`)
      await page.waitForSelector('#counters tr[data-port="phy:0"]')
      const reads = () => requests.filter((url) => url.endsWith('/v1/primary/status')).length
      const visibility = (state: string) =>
        page.evaluate((state) => {
          Object.defineProperty(document, 'visibilityState', { configurable: true, value: state })
          document.dispatchEvent(new Event('visibilitychange'))
        }, state)
      const periodic = page.waitForRequest((r) => r.url().endsWith('/v1/primary/status'))
      await page.clock.runFor(2000)
      await periodic
      const before = reads()
      await visibility('hidden')
      await page.clock.runFor(60_000)
      const shown = page.waitForRequest((r) => r.url().endsWith('/v1/primary/status'))
      await visibility('visible')
      await shown
      assert.is(reads(), before + 1, 'nothing while hidden, then one read when shown')
    }),
  ),
)

test.run()
