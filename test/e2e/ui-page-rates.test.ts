// The topology page in headless Chromium following the rates the controller pushes
// (/v1/events?rates=1): each edge's rate, a dropping hop with its reason, the problems `topology
// check` prints, the simulator named, and rates asked for only while the page is visible. The
// simulated packets, the controller's reads and its rates' timer all go by the test's clock: the
// chain phy:0 -> nfv:1 -> ring:0 -> vf:2 fwd1 -> phy:1, 20 000 packets a second arriving on phy:0,
// vf 2 reading 5 000 a second.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Page } from 'playwright-core'
import type { Timer } from '../../src/topology/path-watch.ts'
import { browserTest, withPage } from '../helpers/browser.ts'
import { withHarness, type Harness } from '../helpers/harness.ts'

const PROCESSES = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
]
const CHAIN: [string, string, object?][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
]
const NFV_EDGE = 'nfv:1 phy:0 ring:0'
const FWD_IN = 'vf:2 fwd1 rx ring:0'
const FWD_OUT = 'vf:2 fwd1 tx phy:1'
const NFV_HOP = 'nfv:1 phy:0>ring:0'

type Clocked = { clock: { now: number }; next: () => void }

/**
 * A harness whose packets, status reads and rates' timer go by the test's clock: `next()` moves
 * it a second on and runs the rates' timer, as its time would (the controller reads and pushes).
 */
function withClock(body: (h: Harness, c: Clocked) => Promise<void>) {
  const clock = { now: 0 }
  const waiting: { tick: () => void; cancelled: boolean }[] = []
  const timer: Timer = (_ms, tick) => {
    const entry = { tick, cancelled: false }
    waiting.push(entry)
    return () => void (entry.cancelled = true)
  }
  const next = () => {
    const entry = waiting.at(-1)
    if (!entry || entry.cancelled) throw new Error('no rates timer waits')
    entry.cancelled = true
    clock.now += 1000
    entry.tick()
  }
  const traffic = {
    sources: { 'phy:0': 20_000 },
    readerPps: { 'vf:2': 5000 },
    clock: () => clock.now,
  }
  return withHarness(PROCESSES, (h) => body(h, { clock, next }), {
    statusClock: () => clock.now,
    ratesTimer: timer,
    sim: { traffic },
  })
}

async function configure(h: Harness, requests: [string, string, object?][]) {
  for (const [method, path, body] of requests) {
    const r = await h.api(method, path, body)
    assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
  }
}

const edge = (id: string) => `#graph-edges li[data-edge="${id}"]`
/** The page has shown a push whose window is a second: the rates of the clock's last second. */
const shownPush = (page: Page) =>
  page.waitForSelector('#rates[data-rates="live"]:has-text("over 1.0 s")')
const setVisibility = (page: Page, state: 'hidden' | 'visible') =>
  page.evaluate((state) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: state })
    document.dispatchEvent(new Event('visibilitychange'))
  }, state)

browserTest(
  test,
  'each edge shows its rate, a dropping hop is red with its reason, the problems are listed, the simulator named',
  () =>
    withClock((h, { next }) =>
      withPage(async ({ page, requests, problems }) => {
        await configure(h, CHAIN)
        await page.goto(`http://127.0.0.1:${h.controller.apiPort}/`)
        await page.waitForSelector('#connection[data-connection="live"]')
        // the first push (the read at 0) has no rates yet: nothing to judge
        await page.waitForSelector('#rates[data-rates="live"]')
        await page.waitForSelector(`${edge(NFV_EDGE)}[data-rate="…"]`, { state: 'attached' })
        next() // the first second fills ring:0 (127 packets more than fwd1 takes)
        await shownPush(page)
        next()
        await page.waitForSelector(`${edge(NFV_EDGE)}[data-rate="5K pps"]`, { state: 'attached' })

        // phy:0 -> ring:0: 20K pps arrive, fwd1 takes 5K of them, the rest is dropped at ring:0
        const nfv = page.locator(edge(NFV_EDGE))
        assert.is(await nfv.getAttribute('data-state'), 'dropping')
        assert.is(await nfv.getAttribute('data-rate'), '5K pps')
        assert.is(
          await nfv.textContent(),
          `${NFV_EDGE}: nfv:1 · 5K pps · 15K pps dropped · dropping: vf:2 fwd1 reads slower`,
        )
        // what fwd1 takes and sends, SPP does not count: taken from what enters ring:0 (≈)
        for (const id of [FWD_IN, FWD_OUT]) {
          assert.is(await page.getAttribute(edge(id), 'data-rate'), '≈5K pps', id)
          assert.is(await page.getAttribute(edge(id), 'data-state'), 'flowing', id)
        }
        // the problems `topology check` prints
        assert.is(await page.getAttribute('#problems', 'data-problems'), '1')
        const problem = page.locator(`#problems li[data-problem="${NFV_HOP}"]`)
        assert.is(await problem.getAttribute('data-verdict'), 'dropping')
        assert.match(
          (await problem.textContent())!,
          /^dropping nfv:1 phy:0 → ring:0: vf:2 fwd1 reads ring:0 slower .*\(15K pps dropped at ring:0\)$/,
        )
        // the counters are pushed too: what SPP does not count says so, never 0 pps
        const row = (port: string) => `#counters tr[data-port="${port}"]`
        assert.is(await page.textContent(`${row('ring:0')} td[data-rate="rx"]`), 'not counted')
        assert.is(await page.textContent(`${row('ring:0')} td[data-rate="tx"]`), '5K pps')
        assert.is(
          await page.getAttribute(`${row('ring:0')} td[data-counter="tx_drop"]`, 'data-growing'),
          '15K pps',
        )
        // the simulator's counters, said so
        const simulated = page.locator('#simulated')
        assert.ok(await simulated.isVisible())
        assert.is(await simulated.getAttribute('data-simulated'), 'spp-sim')
        assert.match((await simulated.textContent())!, /spp-sim/)

        // nfv 1 stops: nothing is dropped any more, the hop is idle
        await configure(h, [['PUT', '/v1/nfvs/1/forward', { action: 'stop' }]])
        next()
        await page.waitForSelector(`#problems li[data-problem="${NFV_HOP}"][data-verdict="idle"]`)
        assert.is(await nfv.getAttribute('data-state'), 'idle')
        assert.match((await nfv.textContent())!, /idle: nfv:1 stopped$/)
        assert.is(await page.locator('#graph-edges li[data-state="dropping"]').count(), 0)

        // the rates come pushed: the page reads no counters itself
        assert.equal(
          requests.filter((url) => url.includes('/v1/primary/status')),
          [],
        )
        assert.equal(problems, [])
      }),
    ),
)

browserTest(test, 'with a real primary, the page says nothing of a simulator', () =>
  withClock((h) =>
    withPage(async ({ page }) => {
      // the status a real primary answers has no `simulator`
      await page.route('**/v1/topology', async (route) => {
        const response = await route.fetch()
        const document = (await response.json()) as { primary: Record<string, unknown> }
        delete document.primary.simulator
        await route.fulfill({ response, json: document })
      })
      await page.goto(`http://127.0.0.1:${h.controller.apiPort}/`)
      await page.waitForSelector('[data-process="primary"]')
      assert.is(await page.getAttribute('#simulated', 'data-simulated'), '')
      assert.not.ok(await page.locator('#simulated').isVisible())
    }),
  ),
)

browserTest(
  test,
  'the page asks for the rates only while it is visible, and follows on where it left off',
  () =>
    withClock((h, { next }) =>
      withPage(async ({ page, requests }) => {
        await configure(h, CHAIN)
        const streams = () =>
          requests
            .filter((url) => url.includes('/v1/events'))
            .map((url) => new URL(url).search || 'plain')
        await page.goto(`http://127.0.0.1:${h.controller.apiPort}/`)
        await page.waitForSelector('#rates[data-rates="live"]')
        assert.equal(streams(), ['?rates=1'], 'asked for at once, with no reconnection')
        assert.is(h.controller.hub.ratesWatchers, 1)
        next()
        await shownPush(page)

        const plain = page.waitForRequest((r) => r.url().endsWith('/v1/events'))
        await setVisibility(page, 'hidden')
        const resumed = await plain
        assert.match((await resumed.allHeaders())['last-event-id'] ?? '', /^\d+$/)
        await page.waitForSelector('#rates[data-rates="paused"]')
        await ratesWatchers(h, 0) // the stream that asked is let go: the controller reads nothing
        await page.waitForSelector('#connection[data-connection="live"]')
        // a change made while hidden still shows: the stream follows on
        await configure(h, [['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' }]])
        await page.waitForSelector('[data-process="nfv:1"] [data-port="ring:1"]')

        const withRates = page.waitForRequest((r) => r.url().endsWith('/v1/events?rates=1'))
        await setVisibility(page, 'visible')
        await withRates
        await ratesWatchers(h, 1)
        next()
        await shownPush(page)
        assert.equal(streams(), ['?rates=1', 'plain', '?rates=1'])
      }),
    ),
)

/** Resolves once `watchers` streams ask the controller for rates (at once if they do now). */
const ratesWatchers = (h: Harness, watchers: number) =>
  new Promise<void>((resolve) => {
    if (h.controller.hub.ratesWatchers === watchers) return resolve()
    const stop = h.controller.hub.onRatesWatchers((now) => {
      if (now !== watchers) return
      stop()
      resolve()
    })
  })

test.run()
