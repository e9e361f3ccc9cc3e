// What a controller tells of its link to the fleet's etcd: GET /v1/fleet/link, the `fleet.link`
// event and the page's banner, as etcd stops answering or refuses the host, and comes back.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseEvents } from '../../src/cli/sse-client.ts'
import { browserMissing, cuttableProxy, withPage } from '../helpers/browser.ts'
import {
  addPort,
  etcdUp,
  reached,
  startChildController,
  type ChildController,
} from '../helpers/controllers.ts'
import { etcdTest, withEtcd } from '../helpers/etcd.ts'
import {
  secureEtcdMissing,
  secureEtcdTest,
  withSecureEtcd,
  type SecureEtcd,
} from '../helpers/etcd-secure.ts'
import { withHarness } from '../helpers/harness.ts'
import { testNeeding } from '../helpers/needs.ts'
import { seenSoFar } from '../helpers/watch-events.ts'

const SIMS = [{ kind: 'primary' as const }, { kind: 'nfv' as const, clientId: 1 }]
const ERROR = 50

type Link = { host: string; endpoints: string[]; state: string; since: string; line?: string }

const linkOf = async (base: string) => {
  const response = await fetch(`${base}/v1/fleet/link`)
  assert.is(response.status, 200)
  return (await response.json()) as Link
}

/** The `fleet.link` events of the controller's /v1/events, read over its socket from now on. */
async function linkEvents(base: string) {
  const abort = new AbortController()
  const response = await fetch(`${base}/v1/events`, { signal: abort.signal })
  assert.is(response.status, 200)
  const links = seenSoFar<Link>(20_000)
  void (async () => {
    try {
      for await (const event of parseEvents(response.body!.pipeThrough(new TextDecoderStream())))
        if (event.event === 'fleet.link') links.add(event.data as unknown as Link)
    } catch {
      // aborted at the end of the test
    }
  })()
  return {
    seen: links.seen,
    /** The first `fleet.link` event (so far or to come) that `match` takes; fails after 20 s. */
    until: (match: (link: Link) => boolean, what: string) =>
      links.until(match, () => `no fleet.link event ${what}; seen: ${JSON.stringify(links.seen)}`),
    close: () => abort.abort(),
  }
}

test('without --etcd, GET /v1/fleet/link is a 404 that says so', () =>
  withHarness([], async (h) => {
    const r = await h.api('GET', '/v1/fleet/link')
    assert.is(r.status, 404)
    assert.is(r.text, 'this controller is in no fleet: it was started without --etcd\n')
  }))

etcdTest(
  test,
  'etcd unreachable and back: GET /v1/fleet/link and a fleet.link event say so, with the line',
  () =>
    withEtcd(async (etcd) => {
      const proxy = await cuttableProxy(Number(new URL(etcd.url).port))
      const url = `http://127.0.0.1:${proxy.port}`
      const a = await startChildController(url, 'a', SIMS)
      try {
        await a.waitForLog(reached)
        const up = await linkOf(a.base)
        assert.equal([up.host, up.endpoints, up.state, up.line], ['a', [url], 'up', undefined])
        const events = await linkEvents(a.base)
        try {
          proxy.down()
          const down = await events.until((l) => l.state === 'unreachable', 'unreachable')
          assert.match(down.line!, `cannot reach etcd at ${url}: `)
          assert.equal(await linkOf(a.base), down)
          assert.ok(Date.parse(down.since) >= Date.parse(up.since), down.since)
          assert.is(await etcdUp(a.base), '0')
          assert.is(await addPort(a.base, 'ring:0'), 204, 'it keeps serving its host')
          proxy.up()
          const back = await events.until((l) => l.state === 'up', 'up')
          assert.is(back.line, undefined)
          assert.equal(await linkOf(a.base), back)
        } finally {
          events.close()
        }
      } finally {
        await a.stop()
        await proxy.close()
      }
    }),
)

/** The controller of host left, on the secured etcd with its own certificate, and etcd's root. */
const startLeft = (s: SecureEtcd) =>
  startChildController(s.etcd.url, 'left', SIMS, [
    ...['--etcd-ca', s.pki.ca, '--etcd-cert', s.pki.users.left.cert],
    ...['--etcd-key', s.pki.users.left.key],
  ])
const OWN = ['spp-ctl-host-left', '/spp-ctl/hosts/left/', '--prefix=true']
const revoke = (s: SecureEtcd) => s.etcdctl(['role', 'revoke-permission', ...OWN])
const grant = (s: SecureEtcd) =>
  s.etcdctl([
    'role',
    'grant-permission',
    'spp-ctl-host-left',
    '--prefix=true',
    'readwrite',
    OWN[1]!,
  ])
const PERMISSION =
  /^etcd at https:\/\/127\.0\.0\.1:\d+ refused user left \(the CN of --etcd-cert \S+left\.crt\) writing \/spp-ctl\/hosts\/left\/(desired|observed): etcdserver: permission denied/

/** Runs `body` with left's controller, stopped afterwards. */
async function withLeft(s: SecureEtcd, body: (left: ChildController) => Promise<void>) {
  const left = await startLeft(s)
  try {
    await left.waitForLog(reached)
    await body(left)
  } finally {
    await left.stop()
  }
}

secureEtcdTest(
  test,
  'etcd refuses a running controller: GET /v1/fleet/link and a fleet.link event give the logged line; granted again, up',
  () =>
    withSecureEtcd((s) =>
      withLeft(s, async (left) => {
        assert.is((await linkOf(left.base)).state, 'up')
        const events = await linkEvents(left.base)
        try {
          await revoke(s)
          assert.is(await addPort(left.base, 'ring:0'), 204)
          const refused = await events.until((l) => l.state === 'refused', 'refused')
          assert.match(refused.line!, PERMISSION)
          // The same line the log gives, once.
          const logged = await left.waitForLog((l) => l.level === ERROR && PERMISSION.test(l.msg))
          assert.is(refused.line, logged.msg)
          assert.equal(await linkOf(left.base), refused)
          await grant(s)
          const back = await events.until((l) => l.state === 'up', 'up')
          assert.equal(await linkOf(left.base), back)
          assert.is(await etcdUp(left.base), '1')
        } finally {
          events.close()
        }
      }),
    ),
)

testNeeding(
  test,
  "the page shows a banner while etcd refuses its controller, with etcd's line, and clears it once etcd takes it again",
  secureEtcdMissing ?? browserMissing,
  () =>
    withSecureEtcd((s) =>
      withLeft(s, (left) =>
        withPage(async ({ page, problems }) => {
          await page.goto(`${left.base}/`)
          await page.waitForSelector('#connection[data-connection="live"]')
          await page.waitForSelector('#fleet-link[data-link="up"]', { state: 'attached' })
          assert.ok(await page.locator('#fleet-link').isHidden(), 'no banner while up')
          await revoke(s)
          assert.is(await addPort(left.base, 'ring:0'), 204)
          const banner = page.locator('#fleet-link[data-link="refused"]')
          await banner.waitFor()
          const text = (await banner.textContent()) ?? ''
          assert.match(text, /^Fleet link down since .+ \(etcd refuses this host\): etcd at https:/)
          assert.match(text, /refused user left .*: etcdserver: permission denied/)
          assert.match(text, /This controller keeps serving its host and asks etcd again/)
          await grant(s)
          await page.waitForSelector('#fleet-link[data-link="up"]', { state: 'attached' })
          assert.ok(await page.locator('#fleet-link').isHidden(), 'the banner is gone')
          assert.is(await page.locator('#fleet-link').textContent(), '')
          assert.equal(problems, [])
        }),
      ),
    ),
)

testNeeding(test, 'without --etcd the page shows nothing of the fleet', browserMissing, () =>
  withHarness(SIMS, (h) =>
    withPage(async ({ page, problems }) => {
      const read = page.waitForResponse((r) => r.url().endsWith('/v1/fleet/link'))
      await page.goto(`http://127.0.0.1:${h.controller.apiPort}/`)
      assert.is((await read).status(), 404)
      await page.waitForSelector('#connection[data-connection="live"]')
      const banner = page.locator('#fleet-link')
      assert.ok(await banner.isHidden())
      assert.is(await banner.getAttribute('data-link'), null)
      assert.equal(problems, [])
    }),
  ),
)

test.run()
