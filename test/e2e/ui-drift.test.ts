// The topology page in headless Chromium with --restore report: a restarted vf is marked as
// drifting, with the steps it misses, and its Restore button brings it back.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { browserTest, withPage } from '../helpers/browser.ts'
import { commandsOf } from '../helpers/harness.ts'
import { withRemembering } from '../helpers/remember.ts'
import { about } from '../helpers/watch-events.ts'

const VF = [{ kind: 'primary' as const }, { kind: 'vf' as const, clientId: 2 }]
const SETUP: [string, string, object][] = [
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'vhost:0', dir: 'tx' }],
]

browserTest(test, 'a drifting vf is marked with its missing steps; Restore brings it back', () =>
  withRemembering(
    VF,
    async (h) => {
      for (const [method, path, body] of SETUP)
        assert.is((await h.api(method, path, body)).status, 204, path)
      const base = `http://127.0.0.1:${h.controller.apiPort}`
      await withPage(async ({ page, requests, problems }) => {
        await page.goto(`${base}/`)
        await page.waitForSelector('[data-component="vf:2 fwd1"]')
        assert.is(await page.locator('section[data-drift]').count(), 0, 'in sync: no mark')

        const fresh = await h.restart(h.sim('vf 2'))
        await h.events.until((e) => e.type === 'drift.detected' && about(e, 'vf:2'), 'drift')
        const marked = page.locator('section[data-process="vf:2"][data-drift="3"]')
        await marked.waitFor()
        const drift = (await h.api('GET', '/v1/topology/drift')).json() as {
          vfs: Record<string, { steps: { why: string }[] }>
        }
        assert.equal(
          await marked.locator('[data-drift-step="vf:2"]').allTextContents(),
          drift.vfs['2']!.steps.map((s) => s.why),
        )
        const changes = commandsOf(fresh).filter((c) => c !== 'status') // the page reads it
        assert.equal(changes, [], 'reported, nothing sent')

        const [restore] = await Promise.all([
          page.waitForRequest((r) => r.url() === `${base}/v1/topology/restore`),
          marked.locator('button[data-restore="vf:2"]').click(),
        ])
        assert.is(restore.method(), 'POST')
        assert.equal(restore.postDataJSON(), { process: 'vf:2' })
        await page.waitForSelector('section[data-process="vf:2"]:not([data-drift])')
        await page.waitForSelector('[data-component="vf:2 fwd1"]')
        assert.match(
          (await page.locator('[data-component="vf:2 fwd1"]').textContent())!,
          /rx ring:0.*tx vhost:0/,
        )
        assert.equal(
          requests.filter((url) => !url.startsWith(`${base}/`)),
          [],
          'requests outside the controller',
        )
        assert.equal(problems, [])
      })
    },
    { restore: 'report' },
  ),
)

test.run()
