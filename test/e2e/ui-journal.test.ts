// The page's panel of the last changes: GET /v1/journal with the tab's token, read again after an
// event, hidden on a controller that keeps no journal.
import type { Page } from 'playwright-core'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken, type Client } from '../../src/auth/clients.ts'
import { browserTest, withPage } from '../helpers/browser.ts'
import { entryAt, withJournalServer } from '../helpers/journal-server.ts'

const T0 = Date.UTC(2026, 0, 1, 12)
const MIN = 60_000
const READ = newToken()
const clients: Client[] = [{ name: 'dash', scope: 'read', digest: digestOf(READ) }]

/** The journal requests the page makes, with their Authorization header. */
function journalRequests(page: Page) {
  const sent: (string | undefined)[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/v1/journal') sent.push(r.headers().authorization)
  })
  return sent
}

const ids = (page: Page) =>
  page.$$eval('#journal tbody tr', (rows) =>
    rows.map((r) => Number(r.getAttribute('data-journal'))),
  )

browserTest(
  test,
  'the last 20 changes, newest first, with the token; a new one after an event',
  () =>
    withJournalServer(
      ({ url, store, hub }) =>
        withPage(async ({ page, problems }) => {
          for (let i = 1; i <= 25; i++) store!.journal(entryAt(T0 + i * MIN, 'ops', [`vf:${i}`]))
          store!.journal({
            ...entryAt(T0 + 26 * MIN, 'restore', ['nfv:1']),
            commands: [
              { line: 'add ring:0', outcome: 'ok' },
              { line: 'add ring:9', outcome: { error: 'COMMAND_REJECTED', message: 'no' } },
            ],
            status: 400,
          })
          const sent = journalRequests(page)
          await page.goto(`${url}/`)
          assert.ok(await page.isHidden('#journal-panel'), 'nothing shown before a token')
          await page.fill('#token-input', READ)
          await page.click('#token button[type="submit"]')
          await page.waitForSelector('#journal-panel:not([hidden]) tr[data-journal="26"]')
          assert.equal(
            await ids(page),
            [26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7],
          )
          const newest = page.locator('tr[data-journal="26"]')
          assert.is(await newest.getAttribute('data-by'), 'restore')
          assert.is(await newest.locator('[data-status]').textContent(), '400')
          assert.is(
            await newest.locator('[data-failed]').textContent(),
            'add ring:9 (COMMAND_REJECTED)',
          )
          assert.is(
            await newest.locator('time').getAttribute('datetime'),
            '2026-01-01T12:26:00.000Z',
          )
          assert.match((await newest.textContent())!, /PUT \/v1\/nfvs\/1\/patches/)

          store!.journal(entryAt(T0 + 27 * MIN, 'ops', ['mirror:3']))
          hub.publish('port.added', { kind: 'mirror', 'client-id': 3, port: 'ring:0' })
          // Within playwright's 30 s: the page's periodic read (each minute) cannot be what brings it.
          await page.waitForSelector('tr[data-journal="27"]')
          assert.equal((await ids(page)).slice(0, 3), [27, 26, 25])
          assert.is((await ids(page)).length, 20)
          assert.ok(sent.length >= 2)
          assert.ok(
            sent.slice(-2).every((a) => a === `Bearer ${READ}`),
            'sent with the token',
          )
          // Failed loads are the 401 before the token, and the nfv and mirror read after the event.
          assert.equal(
            problems.filter((p) => !p.includes('status of 401') && !p.includes('status of 404')),
            [],
          )
        }),
      { clients },
    ),
)

browserTest(test, 'a controller without a journal: the panel stays hidden, asked once', () =>
  withJournalServer(
    ({ url, hub }) =>
      withPage(async ({ page }) => {
        const sent = journalRequests(page)
        const answered = page.waitForResponse((r) => r.url().endsWith('/v1/journal?limit=20'))
        await page.goto(`${url}/`)
        assert.is((await answered).status(), 404)
        await page.waitForSelector('#connection[data-connection="live"]')
        // An event would read it again: the page asks nothing more of a controller without one.
        const read = page.waitForResponse((r) => r.url().endsWith('/v1/nfvs/1'))
        hub.publish('nfv.status', { kind: 'nfv', 'client-id': 1, status: 'Running' })
        await read
        assert.ok(await page.isHidden('#journal-panel'))
        assert.is(sent.length, 1)
      }),
    { journal: false },
  ),
)

test.run()
