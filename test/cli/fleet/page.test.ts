// The fleet page in headless Chromium: a card per alive host, live from etcd, drift shown.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEtcd } from '../../../src/fleet/etcd-client.ts'
import { fleetKeys } from '../../../src/fleet/keys.ts'
import { startFleetServer } from '../../../src/cli/fleet/serve.ts'
import { CONTENT_SECURITY_POLICY } from '../../../src/http/ui-routes.ts'
import { browserMissing, withPage } from '../../helpers/browser.ts'
import { testNeeding } from '../../helpers/needs.ts'
import { etcdMissing, revisionNow, waitForKey, withEtcd } from '../../helpers/etcd.ts'
import { startFleetHosts, type FleetHost } from '../../helpers/fleet-hosts.ts'

const keys = fleetKeys()
const CHAIN = { nfvs: { 1: { ports: ['phy:0', 'phy:1', 'ring:0'], status: 'Running' } } }
const missing = etcdMissing ?? browserMissing

const name = 'three hosts as cards; drift shows; a host whose lease goes leaves the cards'
// b only reports drift (--restore report): a desired document it is given is remembered, not applied.
const optionsOf = (host: string) => (host === 'b' ? { restore: 'report' as const } : {})
testNeeding(test, name, missing, () =>
  withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    const hosts: FleetHost[] = []
    const server = await startFleetServer({
      endpoints: [etcd.url],
      keys,
      host: '127.0.0.1',
      port: 0,
    })
    const base = `http://127.0.0.1:${server.port}`
    try {
      hosts.push(...(await startFleetHosts(etcd.url, client, ['a', 'b', 'c'], optionsOf)))
      const [, b, c] = hosts as [FleetHost, FleetHost, FleetHost]
      const page = await fetch(`${base}/`)
      assert.is(page.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY)
      await withPage(async ({ page, requests, problems }) => {
        await page.goto(`${base}/`)
        await page.waitForSelector('#connection[data-connection="live"]')
        await page.waitForSelector('[data-host="c"]')
        const cards = await page.$$eval('[data-host]', (all) =>
          all.map(
            (e) =>
              `${e.getAttribute('data-host')} ${e.getAttribute('data-alive')} ${e.getAttribute('data-drift')}`,
          ),
        )
        assert.equal(cards, ['a true 0', 'b true 0', 'c true 0'])
        assert.is(
          await page.getAttribute('[data-topology="b"]', 'href'),
          b.url,
          "the card links to the host's own topology page",
        )
        // b is given a desired document and leaves it to the operator: 2 steps of drift.
        const from = (await revisionNow(client)) + 1
        await client.put(keys.desired('b')).value(JSON.stringify(CHAIN)).exec()
        await waitForKey(client, keys.observed('b'), (e) => e.value!.includes('"refused"'), {
          fromRevision: from,
        })
        // The card's attribute and text are read in one look: a later render may replace it.
        const shown = await page.waitForFunction(
          () => document.querySelector('[data-host="b"][data-drift="2"]')?.textContent,
        )
        assert.match(String(await shown.jsonValue()), /drift\s*2 steps/)
        await c.close()
        await page.waitForSelector('[data-host="c"]', { state: 'detached' })
        await page.waitForSelector('[data-gone="c"]')
        assert.is(await page.locator('[data-host]').count(), 2)
        assert.equal(problems, [])
        assert.equal(
          requests.filter((url) => !url.startsWith(`${base}/`)),
          [],
          'every request is to the fleet server',
        )
      })
    } finally {
      await Promise.all(hosts.map((host) => host.close()))
      await server.close()
      client.close()
    }
  }),
)

test.run()
