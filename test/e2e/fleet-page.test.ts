// The fleet page in headless Chromium with three real controllers: a card each, live from etcd.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEtcd } from '../../src/fleet/etcd-client.ts'
import { fleetKeys } from '../../src/fleet/keys.ts'
import { startFleetServer } from '../../src/cli/fleet/serve.ts'
import { browserMissing, withPage } from '../helpers/browser.ts'
import { testNeeding } from '../helpers/needs.ts'
import { withChildControllers } from '../helpers/controllers.ts'
import { etcdMissing, withEtcd } from '../helpers/etcd.ts'

const SIMS = [{ kind: 'primary' as const }, { kind: 'nfv' as const, clientId: 1 }]
const CHAIN = { nfvs: { 1: { ports: ['phy:0', 'phy:1', 'ring:0'], status: 'Running' } } }
const missing = etcdMissing ?? browserMissing
const name = 'three controllers, three cards; drift shows; a controller killed leaves the cards'

testNeeding(test, name, missing, () =>
  withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    try {
      await withChildControllers(
        etcd.url,
        ['a', 'b', 'c'],
        SIMS,
        async ([, b, c]) => {
          const keys = fleetKeys()
          const server = await startFleetServer({
            ...{ endpoints: [etcd.url], keys },
            ...{ host: '127.0.0.1', port: 0 },
          })
          const base = `http://127.0.0.1:${server.port}`
          try {
            await withPage(async ({ page, problems }) => {
              await page.goto(`${base}/`)
              await page.waitForSelector('#connection[data-connection="live"]')
              // Each card once its controller has written observed: its processes are listed.
              for (const host of ['a', 'b', 'c'])
                await page.waitForFunction(
                  (h) =>
                    document.querySelector(`[data-host="${h}"]`)?.textContent?.includes('nfv:1'),
                  host,
                )
              const cards = await page.$$eval('[data-host]', (all) =>
                all.map((e) => `${e.getAttribute('data-host')} ${e.getAttribute('data-alive')}`),
              )
              assert.equal(cards, ['a true', 'b true', 'c true'])
              assert.is(
                await page.getAttribute('[data-topology="b"]', 'href'),
                `${b!.base}/`,
                "the card links to the host's own controller",
              )
              // b reports drift instead of restoring: etcd's document leaves it 2 steps away.
              // Attribute and text in one look: a later render may replace the card meanwhile.
              await client.put(keys.desired('b')).value(JSON.stringify(CHAIN)).exec()
              await page.waitForFunction(() => {
                const card = document.querySelector('[data-host="b"][data-drift="2"]')
                return /drift\s*2 steps/.test(card?.textContent ?? '')
              })
              await c!.kill()
              // Its lease expires within 10 s: its card goes, and the page says it went.
              await page.waitForSelector('[data-host="c"]', {
                state: 'detached',
                timeout: 20_000,
              })
              await page.waitForSelector('[data-gone="c"]')
              assert.is(await page.locator('[data-host]').count(), 2)
              assert.equal(problems, [])
            })
          } finally {
            await server.close()
          }
        },
        (host) => (host === 'b' ? ['--restore', 'report'] : []),
      )
    } finally {
      client.close()
    }
  }),
)

test.run()
