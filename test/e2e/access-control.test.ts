// --auth-file over real sockets: every route of the operations table with no token, a read and a write token.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken, type Client } from '../../src/auth/clients.ts'
import { OPERATIONS } from '../../src/http/openapi.ts'
import { UI_PATHS } from '../../src/http/ui-routes.ts'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { withHarness, type Harness } from '../helpers/harness.ts'
import { captureLogs } from '../helpers/log-capture.ts'

const WRITE = newToken()
const READ = newToken()
const STRANGER = newToken()
const clients: Client[] = [
  { name: 'ops', scope: 'write', digest: digestOf(WRITE) },
  { name: 'dash', scope: 'read', digest: digestOf(READ) },
]
const PROCESSES = [
  { kind: 'primary' },
  { kind: 'nfv', clientId: 1 },
  { kind: 'vf', clientId: 2 },
  { kind: 'mirror', clientId: 3 },
] as const
/** GETs anyone may make: the pages and the API's description (no data of this controller). */
const PUBLIC = new Set([...UI_PATHS, '/openapi.json'])

const ID: Record<string, string> = { nfvs: '1', vfs: '2', mirrors: '3', pcaps: '4' }
/** Every operation of the table (the openapi test proves it lists every route) as a request. */
const ROUTES = OPERATIONS.map(({ method, path }) => ({
  method: method.toUpperCase(),
  path: path
    .replace('{client_id}', ID[/^\/v1\/(\w+)/.exec(path)?.[1] ?? ''] ?? '1')
    .replace('{name}', 'x')
    .replace(/\{(port_id|rule_id)\}/g, '0'),
}))
const reads = ROUTES.filter((r) => r.method === 'GET')
const writes = ROUTES.filter((r) => r.method !== 'GET')

type Answer = { status: number; type: string | null; text: string; challenge: string | null }
const bodies: string[] = []
/** One request; an event stream is read up to its head only. */
async function send(
  h: Harness,
  method: string,
  path: string,
  token?: string,
  body = '{}',
): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${h.controller.apiPort}${path}`, {
    method,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: method === 'GET' ? undefined : body,
  })
  const streaming = response.headers.get('content-type')?.startsWith('text/event-stream')
  const text = streaming ? (await response.body?.cancel(), '') : await response.text()
  bodies.push(text)
  const { status, headers } = response
  const [type, challenge] = [headers.get('content-type'), headers.get('www-authenticate')]
  return { status, type, text, challenge }
}
const sent = (sims: SimProcess[]) => sims.reduce((n, sim) => n + sim.received.length, 0)
const where = (method: string, path: string, a: Answer) =>
  `${method} ${path}: ${a.status} ${a.text}`

test('every route: no token 401, a read token 403 for writes, nothing sent; the right token passes', async () => {
  const { log, lines } = captureLogs('debug')
  await withHarness(
    [...PROCESSES],
    async (h) => {
      assert.ok(reads.length > 10 && writes.length > 20, `${reads.length} + ${writes.length}`)
      const before = sent(h.sims)
      for (const { method, path } of ROUTES) {
        const a = await send(h, method, path)
        if (method === 'GET' && PUBLIC.has(path)) {
          assert.is(a.status, 200, where(method, path, a))
          continue
        }
        assert.is(a.status, 401, where(method, path, a))
        assert.match(a.type ?? '', /^text\/plain/)
        assert.is(a.challenge, 'Bearer realm="spp-ctl"')
        const stranger = await send(h, method, path, STRANGER)
        assert.is(stranger.status, 401, where(method, path, stranger))
        assert.match(stranger.challenge ?? '', /^Bearer .*error="invalid_token"/)
      }
      for (const { method, path } of writes) {
        const a = await send(h, method, path, READ)
        assert.is(a.status, 403, where(method, path, a))
        assert.match(a.type ?? '', /^text\/plain/)
        assert.match(a.text, /needs a token of scope write; the token of dash has scope read/)
        assert.match(a.challenge ?? '', /error="insufficient_scope"/)
      }
      assert.is(sent(h.sims), before, 'a refused request sent nothing to any process')

      for (const { method, path } of reads) {
        const a = await send(h, method, path, READ)
        assert.ok(a.status !== 401 && a.status !== 403, where(method, path, a))
      }
      for (const { method, path } of ROUTES) {
        const a = await send(h, method, path, WRITE)
        assert.ok(a.status !== 401 && a.status !== 403, where(method, path, a))
      }
      assert.ok(sent(h.sims) > before, 'the authorised requests reached the processes')

      const metrics = (await send(h, 'GET', '/metrics', READ)).text
      assert.match(metrics, /spp_http_requests_total\{[^}]*status="401"\} [1-9]/)
      assert.match(metrics, /spp_http_requests_total\{[^}]*status="403"\} [1-9]/)
      const requests = lines.filter((l) => l.msg === 'http request')
      const who = new Set(requests.map((l) => String(l.who).replace(/ [\d.:]+$/, '')))
      assert.equal([...who].sort(), ['anonymous', 'dash', 'ops'])
      // No token, valid or not, in any log line or any answer: not even six characters of one.
      const everything = JSON.stringify(lines) + bodies.join('\n')
      for (const token of [WRITE, READ, STRANGER])
        for (let i = 0; i + 6 <= token.length; i++)
          assert.not.ok(everything.includes(token.slice(i, i + 6)), `part of a token is shown`)
    },
    { clients, log, sim: { pollMs: 0 } },
  )
})

test('--allow-read-anonymous: a GET needs no token, a write still does, a wrong token is refused', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      assert.is((await send(h, 'GET', '/v1/nfvs/1')).status, 200)
      assert.is((await send(h, 'GET', '/v1/nfvs/1', STRANGER)).status, 401)
      assert.is((await send(h, 'PUT', '/v1/nfvs/1/forward')).status, 401)
      assert.is((await send(h, 'PUT', '/v1/nfvs/1/forward', READ)).status, 403)
      assert.equal(h.sim('nfv 1').received.slice(1), ['status'])
    },
    { clients, allowReadAnonymous: true },
  ))

test("an apply's steps run through the app without a token of their own, as that apply", async () => {
  const { log, lines } = captureLogs()
  await withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const desired = JSON.stringify({ nfvs: { '1': { status: 'Running' } } })
      const answer = await send(h, 'POST', '/v1/topology/apply', WRITE, desired)
      assert.is(answer.status, 200, answer.text)
      assert.ok(h.sim('nfv 1').received.includes('forward'))
      const apply = lines.find((l) => l.path === '/v1/topology/apply')
      const step = lines.find((l) => l.path === '/v1/nfvs/1/forward')
      assert.is(apply?.who, 'ops')
      assert.is(step?.who, `apply ${String(apply?.req)} by ops`)
      assert.is(step?.status, 204)
    },
    { clients, log },
  )
})

test('without --auth-file the API is open as before, and a request is anonymous with its peer', async () => {
  const { log, lines } = captureLogs()
  await withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const start = '{"action":"start"}'
      assert.is((await send(h, 'PUT', '/v1/nfvs/1/forward', STRANGER, start)).status, 204)
      const line = lines.find((l) => l.msg === 'http request')
      assert.match(String(line?.who), /^anonymous 127\.0\.0\.1:\d+$/)
    },
    { log },
  )
})

test.run()
