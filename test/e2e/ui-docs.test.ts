// The API docs page in headless Chromium: every operation listed, and "try it out" (on by default) hits this controller.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { OPERATIONS } from '../../src/http/openapi.ts'
import { browserTest, withPage } from '../helpers/browser.ts'
import { withHarness } from '../helpers/harness.ts'

browserTest(
  test,
  '/docs renders every operation, and "try it out" runs one against the controller',
  () =>
    withHarness([{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }], (h) =>
      withPage(async ({ page, requests, problems }) => {
        const base = `http://127.0.0.1:${h.controller.apiPort}`
        await page.goto(`${base}/docs`)
        await page.waitForSelector('.opblock')
        assert.is(await page.locator('.opblock').count(), OPERATIONS.length)
        const nfv = page.locator('.opblock-get', { hasText: '/v1/nfvs/{client_id}' }).first()
        await nfv.locator('.opblock-summary').click()
        await nfv.locator('input[placeholder="client_id"]').fill('1')
        await nfv.getByRole('button', { name: 'Execute' }).click()
        const body = nfv.locator('.live-responses-table .response-col_description pre').first()
        await body.waitFor()
        assert.match((await body.textContent())!, /"status": "Idle"/)
        assert.ok(requests.includes(`${base}/v1/nfvs/1`), 'the request went to this controller')
        assert.equal(
          requests.filter((url) => !url.startsWith(`${base}/`)),
          [],
          'outside requests',
        )
        assert.equal(problems, [])
      }),
    ),
)

test.run()
