// npm run screenshot [FILE]: the README's picture of the page (docs/topology.png by default), taken
// with the browser tests' tooling against the simulator, after the demo's Try list has built its
// chain. Run it again when the page changes.
import { curlLine, TRY_CHAIN } from '../../src/cli/demo-try.ts'
import { withPage } from './browser.ts'
import { withHarness } from './harness.ts'

const out = process.argv[2] ?? 'docs/topology.png'

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
      // Two reads of the counters, so that the table shows rates (the page reads every 2 s).
      await page.waitForFunction(
        () => document.querySelector('#counters td[data-rate="rx"]')?.textContent !== '…',
        undefined,
        { timeout: 10_000 },
      )
      await page.screenshot({ path: out, fullPage: true })
    })
  },
)
console.log(`wrote ${out}`)
