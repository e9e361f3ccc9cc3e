// /docs against a controller with --auth-file: Authorize, "try it out" with the token, and where the token is kept.
import type { Locator, Page } from 'playwright-core'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken, type Client } from '../../src/auth/clients.ts'
import { browserTest, withPage } from '../helpers/browser.ts'
import { withHarness } from '../helpers/harness.ts'

const READ = newToken()
const clients: Client[] = [{ name: 'dash', scope: 'read', digest: digestOf(READ) }]

/** Runs GET /v1/nfvs/{client_id} with client_id 1: the status swagger-ui shows for it. */
async function tryNfv(page: Page, nfv: Locator) {
  const answered = page.waitForResponse((r) => r.url().endsWith('/v1/nfvs/1'))
  await nfv.getByRole('button', { name: 'Execute' }).click()
  const status = (await answered).status()
  await nfv.locator('.live-responses-table .response .response-col_status').first().waitFor()
  return status
}

/** What the tab keeps: its sessionStorage and localStorage, and the cookies of its context. */
const kept = async (page: Page) => ({
  ...(await page.evaluate(() => ({
    session: Object.fromEntries(Object.entries(sessionStorage)),
    local: Object.fromEntries(Object.entries(localStorage)),
  }))),
  cookies: await page.context().cookies(),
})

browserTest(
  test,
  '/docs: "try it out" is 401 without a token, 200 once Authorize has one, kept in the tab only',
  () =>
    withHarness(
      [{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }],
      (h) =>
        withPage(async ({ page, requests }) => {
          const base = `http://127.0.0.1:${h.controller.apiPort}`
          const authorization: (string | undefined)[] = []
          page.on('request', (r) => {
            if (r.url().endsWith('/v1/nfvs/1')) authorization.push(r.headers().authorization)
          })
          await page.goto(`${base}/docs`)
          const nfv = page.locator('.opblock-get', { hasText: '/v1/nfvs/{client_id}' }).first()
          await nfv.locator('.opblock-summary').click()
          await nfv.locator('input[placeholder="client_id"]').fill('1')
          assert.is(await tryNfv(page, nfv), 401)

          await page.locator('.btn.authorize').first().click()
          const dialog = page.locator('.modal-ux')
          assert.match((await dialog.textContent())!, /bearer\s+\(http, Bearer\)/)
          await dialog.locator('input').fill(READ)
          await dialog.locator('.auth-btn-wrapper .authorize').click()
          await dialog.locator('.btn-done').click()
          assert.is(await tryNfv(page, nfv), 200)
          const body = nfv.locator('.live-responses-table .response-col_description pre').first()
          assert.match((await body.textContent())!, /"status": "Idle"/)
          assert.equal(authorization, [undefined, `Bearer ${READ}`])

          // swagger-ui's own copy is in memory (persistAuthorization stays off: no localStorage);
          // the tab's sessionStorage has it for the topology page, which then needs no prompt.
          assert.equal(await kept(page), {
            session: { 'spp-ctl.token': READ },
            local: {},
            cookies: [],
          })
          assert.not.ok(
            requests.some((url) => url.includes(READ)),
            'the token in a URL',
          )
          await page.goto(`${base}/`)
          await page.waitForSelector('[data-process="nfv:1"]')
          assert.ok(await page.isHidden('#token'))

          // ...and back: /docs takes the tab's token, already authorised.
          await page.goto(`${base}/docs`)
          await page.locator('.btn.authorize.locked').first().waitFor()
          await nfv.locator('.opblock-summary').click()
          await nfv.locator('input[placeholder="client_id"]').fill('1')
          assert.is(await tryNfv(page, nfv), 200)

          await page.locator('.btn.authorize').first().click()
          await page
            .locator('.modal-ux')
            .getByRole('button', { name: 'Remove authorization' })
            .click()
          assert.equal((await kept(page)).session, {}, 'logging out forgets it')
        }),
      { clients },
    ),
)

test.run()
