// The topology page in headless Chromium against simulated processes: what it shows and how it follows.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { browserTest, cuttableProxy, withPage } from '../helpers/browser.ts'
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
            if (request.url().endsWith('/v1/events'))
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

test.run()
