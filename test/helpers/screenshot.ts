// npm run screenshot: the README's picture of the page, taken with the browser tests' tooling.
import { withPage } from './browser.ts'
import { withHarness } from './harness.ts'

const out = process.argv[2] ?? 'docs/topology.png'
// The README's chain, as in the curl examples.
const SETUP: [string, string, object][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
  ['POST', '/v1/vfs/2/components', { name: 'cls', core: 2, type: 'classifier_mac' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 3, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/cls/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  [
    'PUT',
    '/v1/vfs/2/components/cls/ports',
    { action: 'attach', port: 'ring:1', dir: 'tx', vlan: { operation: 'add', id: 100, pcp: 3 } },
  ],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:1', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:1' },
  ],
  ['POST', '/v1/mirrors/3/components', { name: 'mr1', core: 2, type: 'mirror' }],
  ['PUT', '/v1/mirrors/3/components/mr1/ports', { action: 'attach', port: 'ring:2', dir: 'rx' }],
  ['PUT', '/v1/mirrors/3/components/mr1/ports', { action: 'attach', port: 'ring:3', dir: 'tx' }],
]

await withHarness(
  [
    { kind: 'primary' },
    { kind: 'nfv', clientId: 1 },
    { kind: 'vf', clientId: 2 },
    { kind: 'mirror', clientId: 3 },
  ],
  async (h) => {
    for (const [method, path, body] of SETUP) {
      const r = await h.api(method, path, body)
      if (r.status !== 204) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
    }
    await withPage(async ({ page }) => {
      await page.setViewportSize({ width: 1100, height: 900 })
      await page.goto(`http://127.0.0.1:${h.controller.apiPort}/`)
      await page.waitForSelector('[data-component="mirror:3 mr1"]')
      await page.waitForSelector('#connection[data-connection="live"]')
      await page.screenshot({ path: out, fullPage: true })
    })
  },
)
console.log(`wrote ${out}`)
