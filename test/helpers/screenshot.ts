// npm run screenshot [FILE]: the README's picture of the page (docs/topology.png by default), taken
// with the browser tests' tooling against the simulator as the demo runs it (packets arriving on
// phy:0, a state directory: the last changes and revisions), after the demo's Try list has built
// its chain and the page has shown the rates pushed for a few seconds. Run it again when the page
// changes.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { curlLine, TRY_CHAIN } from '../../src/cli/demo-try.ts'
import { withPage } from './browser.ts'
import { withHarness } from './harness.ts'

const out = process.argv[2] ?? 'docs/topology.png'
// As the demo's (src/cli/demo.ts): 20 000 packets a second arrive on phy:0.
const TRAFFIC = { sources: { 'phy:0': 20_000 } }
// Rates pushed before the picture: the sparklines then have a few points.
const PUSHES = 6

const stateDir = mkdtempSync(join(tmpdir(), 'spp-ctl-screenshot-'))
try {
  await withHarness(
    [
      { kind: 'primary' },
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2 },
      { kind: 'mirror', clientId: 3 },
    ],
    async (h) => {
      for (const request of TRY_CHAIN) {
        const [method, path, body] = request
        const r = await h.api(method, path, body)
        if (r.status >= 300) throw new Error(`${curlLine(request, '')}: ${r.status} ${r.text}`)
      }
      await withPage(async ({ page }) => {
        await page.setViewportSize({ width: 1100, height: 900 })
        await page.goto(`http://127.0.0.1:${h.controller.apiPort}/`)
        await page.waitForSelector('[data-component="vf:2 fwd1"]')
        await page.waitForSelector('#connection[data-connection="live"]')
        await page.waitForSelector('#journal-panel:not([hidden])')
        // The rates pushed (one a second), on the graph's edges and in the sparklines.
        await page.waitForFunction(
          (pushes) =>
            /pps$/.test(
              document
                .querySelector('#graph-edges li[data-edge="nfv:1 phy:0 ring:0"]')
                ?.getAttribute('data-rate') ?? '',
            ) &&
            Number(
              document
                .querySelector('#counters tr[data-port="phy:0"] svg.sparkline')
                ?.getAttribute('data-points') ?? 0,
            ) >= pushes,
          PUSHES,
          { timeout: 30_000 },
        )
        await page.screenshot({ path: out, fullPage: true })
      })
    },
    { stateDir, sim: { traffic: TRAFFIC } },
  )
} finally {
  rmSync(stateDir, { recursive: true, force: true })
}
console.log(`wrote ${out}`)
