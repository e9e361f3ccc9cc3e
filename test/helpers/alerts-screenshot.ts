// docs/observing.md's picture: Prometheus's alerts page with SppProcessDown firing for a stopped
// vf, the shipped rules as they are (so it waits their minute), taken with the browser tests' tooling.
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { withPage } from './browser.ts'
import { pollUntil, startPrometheus } from './prometheus.ts'
import { withRemembering } from './remember.ts'

const out = process.argv[2] ?? 'docs/prometheus-alerts.png'
const rules = readFileSync(new URL('../../contrib/prometheus/spp-ctl.rules.yml', import.meta.url))

await withRemembering(
  [
    { kind: 'primary' },
    { kind: 'nfv', clientId: 1 },
    { kind: 'vf', clientId: 2 },
    { kind: 'mirror', clientId: 3 },
  ],
  async (h) => {
    const made = await h.api('POST', '/v1/vfs/2/components', {
      name: 'fwd1',
      core: 2,
      type: 'forward',
    })
    if (made.status !== 204) throw new Error(`vf 2 not configured: ${made.status} ${made.text}`)
    const prometheus = await startPrometheus([`127.0.0.1:${h.controller.apiPort}`], String(rules))
    try {
      await pollUntil(
        'vf:2 scraped',
        () => prometheus.query('spp_process_up{process="vf:2"}'),
        (r) => r[0]?.value[1] === '1',
      )
      const removed = once(h.controller.registry, 'removed')
      h.sim('vf 2').stop()
      await removed
      console.log('vf 2 stopped; SppProcessDown fires after its for: of 1 minute')
      await pollUntil(
        'SppProcessDown firing',
        () => prometheus.alerts(),
        (alerts) =>
          alerts.some((a) => a.labels.alertname === 'SppProcessDown' && a.state === 'firing'),
        120_000,
      )
      await withPage(async ({ page }) => {
        await page.setViewportSize({ width: 1100, height: 900 })
        await page.goto(`${prometheus.url}/classic/alerts`)
        await page.getByText('SppProcessDown', { exact: false }).first().click() // its details
        await page.click('button.show-annotations') // the summary and description, rendered
        // The rules file's directory is a temporary one of this machine: the picture names the file.
        await page.evaluate(() => {
          for (const cell of document.querySelectorAll('td, th, div'))
            if (cell.childElementCount === 0 && cell.textContent?.includes('spp-ctl.rules.yml >'))
              cell.textContent = cell.textContent.replace(
                /\S*\/spp-ctl\.rules\.yml/,
                'spp-ctl.rules.yml',
              )
        })
        await page.screenshot({ path: out, fullPage: true })
      })
    } finally {
      await prometheus.close()
    }
  },
)
console.log(`wrote ${out}`)
