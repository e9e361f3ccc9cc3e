// Headless Chromium for end-to-end tests of the pages: Debian's binary, driven by playwright-core.
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { connect, createServer, type AddressInfo, type Socket } from 'node:net'
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core'
import type { Test } from 'uvu'
import { testNeeding } from './needs.ts'

/** Debian's chromium (playwright cannot download a browser here); CHROMIUM overrides it. */
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium'
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Why browser tests cannot run on this machine, or undefined when they can. */
export const browserMissing = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM)`

/** A test that needs the browser: without one, skipped with the reason (under CI: failed). */
export const browserTest = (suite: Test, name: string, body: () => Promise<void>) =>
  testNeeding(suite, name, browserMissing, body)

/**
 * The 404 of GET /v1/journal and /v1/topology/history from a controller that keeps no state, and
 * those of a controller that tells no paths (withoutPaths: 404, and 400 to `?rates=1`): the
 * page's expected answers (it hides their panels, works the rates out itself), which Chromium logs
 * as failed loads like any other 4xx.
 */
const journalMissing = (message: ConsoleMessage) => {
  const url = new URL(message.location().url, 'http://x')
  if (message.text().includes('status of 400'))
    return url.pathname === '/v1/events' && url.search === '?rates=1'
  return (
    message.text().includes('status of 404') &&
    ['/v1/journal', '/v1/topology/history', '/v1/topology/paths'].includes(url.pathname)
  )
}

/** A page and every request it made (URLs) and every error or CSP violation it logged. */
export type OpenedPage = { page: Page; requests: string[]; problems: string[] }

/** Launches Chromium, runs `body` with a fresh page, always closes the browser. */
export async function withPage(body: (opened: OpenedPage) => Promise<void>) {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  try {
    // a context of its own (browser.newPage's is closed to more pages): a test may open a second tab
    const page = await (await browser.newContext()).newPage()
    const requests: string[] = []
    const problems: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    page.on('pageerror', (error) => problems.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error' && !journalMissing(message)) problems.push(message.text())
    })
    await body({ page, requests, problems })
  } finally {
    await browser.close()
  }
}

/**
 * The page as a controller that tells no paths would serve it: GET /v1/topology/paths 404, and
 * /v1/events refuses `rates` as a parameter it does not take. It pushes no rates, so the page
 * reads the primary's counters itself and works the rates out.
 */
export async function withoutPaths(page: Page) {
  await page.route('**/v1/topology/paths', (route) =>
    route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found\n' }),
  )
  await page.route(
    (url) => url.pathname === '/v1/events' && url.searchParams.has('rates'),
    (route) =>
      route.fulfill({
        status: 400,
        contentType: 'text/plain',
        body: 'invalid query: not a parameter of GET /v1/events (rates)\n',
      }),
  )
}

/**
 * A TCP proxy in front of the controller whose connections a test can cut: the way to drop a
 * page's event stream for real. While `down`, new connections are closed at once.
 */
export async function cuttableProxy(targetPort: number) {
  const sockets = new Set<Socket>()
  let down = false
  const server = createServer((client) => {
    if (down) return void client.destroy()
    const upstream = connect(targetPort, '127.0.0.1')
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(a)
      a.pipe(b)
      a.on('error', () => b.destroy())
      a.on('close', () => {
        sockets.delete(a)
        b.destroy()
      })
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as AddressInfo).port,
    /** Cuts every connection and refuses new ones until `up()`. */
    down() {
      down = true
      for (const socket of sockets) socket.destroy()
    },
    up() {
      down = false
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}
