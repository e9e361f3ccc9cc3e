// The topology page in headless Chromium: the recent revisions with who and what, "Roll back to
// here" showing the plan before anything is sent; an apply waiting for its confirmation shown with
// a countdown and a Confirm button, gone once confirmed or expired.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { browserTest, withPage } from '../helpers/browser.ts'
import { withRemembering } from '../helpers/remember.ts'
import { testClock } from '../helpers/test-clock.ts'
import { CHAIN, configuration, PRIMARY_NFV_VF } from '../helpers/chain.ts'

browserTest(
  test,
  'the revisions are listed; roll back to here shows the plan, then rolls back',
  () =>
    withRemembering(PRIMARY_NFV_VF, async (h) => {
      assert.is((await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })).status, 204)
      const fwd = { name: 'fwd9', core: 4, type: 'forward' }
      assert.is((await h.api('POST', '/v1/vfs/2/components', fwd)).status, 204)
      const at2 = await configuration(h)
      assert.is((await h.api('POST', '/v1/topology/apply', CHAIN)).status, 200)
      const base = `http://127.0.0.1:${h.controller.apiPort}`
      await withPage(async ({ page, requests, problems }) => {
        await page.goto(`${base}/`)
        const newest = page.locator('#history tr[data-revision="3"][data-what="apply"]')
        await newest.waitFor()
        assert.match((await newest.textContent())!, /apply.*1 component\.start/)
        assert.is(await page.locator('#history tr[data-revision]').count(), 3)

        // The plan first: nothing is sent to the processes until the second click.
        await page.locator('button[data-rollback="2"]').click()
        const plan = page.locator('[data-rollback-plan="2"]')
        await plan.waitFor()
        const document = (await h.api('GET', '/v1/topology/history/2')).json()
        const planned = (await h.api('POST', '/v1/topology/plan', document)).json() as {
          steps: { why: string }[]
        }
        assert.equal(
          await plan.locator('[data-rollback-step="2"]').allTextContents(),
          planned.steps.map((s) => s.why),
        )
        assert.ok(!requests.some((url) => url.endsWith('/v1/topology/rollback')), 'not sent yet')
        const [rollback] = await Promise.all([
          page.waitForRequest((r) => r.url() === `${base}/v1/topology/rollback`),
          plan.locator('button[data-rollback-confirm="2"]').click(),
        ])
        assert.equal(rollback.postDataJSON(), { to: 2 })
        assert.match((await rollback.allHeaders())['if-match']!, /^"[\w-]+"$/)
        await page.locator('#history tr[data-revision="4"][data-what="rollback"]').waitFor()
        assert.match(
          (await page.locator('[data-rollback-result]').textContent())!,
          /^Rolled back to revision 2\.$/,
        )
        assert.equal(await configuration(h), at2)
        assert.equal(problems, [])
      })
    }),
)

browserTest(
  test,
  'after a rollback the page draws the chain plan sees: a ring the vf keeps but no component uses is apart',
  () =>
    withRemembering(PRIMARY_NFV_VF, async (h) => {
      const fwd1 = { name: 'fwd1', core: 2, type: 'forward' }
      assert.is((await h.api('POST', '/v1/vfs/2/components', fwd1)).status, 204) // revision 1
      const withRing = {
        vfs: { '2': { components: [{ ...fwd1, rx_port: [{ port: 'ring:1' }] }] } },
      }
      assert.is((await h.api('POST', '/v1/topology/apply', withRing)).status, 200) // revision 2
      const back = await h.api('POST', '/v1/topology/rollback', { to: 1 })
      assert.is(back.status, 200, back.text)
      // As SPP's vf does, vf 2 still lists the ring it created; plan sees nothing to change.
      const vf = (await h.api('GET', '/v1/vfs/2')).json() as { ports: string[] }
      assert.ok(vf.ports.includes('ring:1'), vf.ports.join(' '))
      const document = (await h.api('GET', '/v1/topology/history/1')).json()
      const plan = (await h.api('POST', '/v1/topology/plan', document)).json() as { steps: [] }
      assert.equal(plan.steps, [])
      await withPage(async ({ page, problems }) => {
        await page.goto(`http://127.0.0.1:${h.controller.apiPort}/`)
        await page.waitForSelector('[data-component="vf:2 fwd1"]')
        const drawn = (await page.getAttribute('#graph', 'data-ports'))!.split(' ')
        assert.not.ok(drawn.includes('ring:1'), `drawn: ${drawn.join(' ')}`)
        const section = page.locator('[data-process="vf:2"]')
        assert.is(await section.locator('[data-port="ring:1"]').count(), 0)
        assert.is(await section.locator('[data-unused-port="ring:1"]').count(), 1)
        assert.equal(problems, [])
      })
    }),
)

browserTest(
  test,
  'an apply waiting for its confirmation: a countdown and Confirm; gone when it expires',
  () => {
    const time = testClock()
    return withRemembering(
      PRIMARY_NFV_VF,
      async (h) => {
        const base = `http://127.0.0.1:${h.controller.apiPort}`
        await withPage(async ({ page, problems }) => {
          await page.goto(`${base}/`)
          await page.waitForSelector('#connection[data-connection="live"]')
          const first = await h.api('POST', '/v1/topology/apply?confirm_within=120', CHAIN, {
            'X-Request-Id': 'ui-1',
          })
          assert.is(first.status, 200, first.text)
          const banner = page.locator('#confirmation[data-apply="ui-1"]')
          await banner.waitFor()
          assert.match((await banner.locator('[data-seconds-left]').textContent())!, /^\d+:\d\d$/)
          assert.match((await banner.textContent())!, /nfv:1, vf:2/)
          const [confirm] = await Promise.all([
            page.waitForRequest((r) => r.url() === `${base}/v1/topology/confirm`),
            banner.locator('button[data-confirm="ui-1"]').click(),
          ])
          assert.is(confirm.method(), 'POST')
          await page.waitForSelector('#confirmation:not([data-apply])')
          assert.match((await page.locator('#confirmation').textContent())!, /ui-1 confirmed/)
          assert.is((await h.api('POST', '/v1/topology/confirm')).status, 409, 'confirmed already')

          const second = await h.api(
            'POST',
            '/v1/topology/apply?confirm_within=60',
            { nfvs: { '1': { status: 'Running' } } },
            { 'X-Request-Id': 'ui-2' },
          )
          assert.is(second.status, 200, second.text)
          await page.locator('#confirmation[data-apply="ui-2"]').waitFor()
          time.fire()
          await page.locator('#confirmation').waitFor({ state: 'hidden' })
          assert.equal(problems, [])
        })
      },
      { clock: time.clock },
    )
  },
)

test.run()
