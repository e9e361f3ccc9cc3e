// The request log: one `http request` line per change, refusal or failure, carrying the commands
// a change made; a read that succeeded and its command are debug.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { requestLevel } from '../../src/http/app.ts'
import { withHarness } from '../helpers/harness.ts'
import { captureLogs, type LogLine } from '../helpers/log-capture.ts'

/** Three reads, a change and a refusal, against nfv 1; the lines logged at `level`. */
async function requests(level: string): Promise<LogLine[]> {
  const { log, lines } = captureLogs(level)
  await withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
      assert.is((await h.api('GET', '/v1/processes')).status, 200)
      assert.is((await h.api('GET', '/v1/nfvs/9')).status, 404)
      assert.is((await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })).status, 204)
      assert.is((await h.api('PUT', '/v1/nfvs/1/forward', { action: 'go' })).status, 400)
    },
    { log },
  )
  return lines.filter((l) => l.msg === 'http request' || l.msg === 'command done')
}

test('at info: one line per change (with its commands) and refusal; none for a read that succeeded', async () => {
  const lines = await requests('info')
  assert.equal(
    lines.map((l) => [l.level, l.msg, l.method, l.path, l.status, l.commands]),
    [
      [30, 'http request', 'GET', '/v1/nfvs/9', 404, undefined],
      [30, 'http request', 'PUT', '/v1/nfvs/1/forward', 204, ['forward']],
      [30, 'http request', 'PUT', '/v1/nfvs/1/forward', 400, undefined],
    ],
  )
})

test('at debug: the reads and every command too, each command naming its request', async () => {
  const lines = await requests('debug')
  const shown = lines.map((l) => [l.level, l.msg, l.path ?? l.command, l.status ?? l.outcome])
  assert.equal(shown, [
    [20, 'command done', 'status', 'ok'],
    [20, 'http request', '/v1/nfvs/1', 200],
    [20, 'http request', '/v1/processes', 200],
    [30, 'http request', '/v1/nfvs/9', 404],
    [20, 'command done', 'forward', 'ok'],
    [30, 'http request', '/v1/nfvs/1/forward', 204],
    [30, 'http request', '/v1/nfvs/1/forward', 400],
  ])
  const forward = lines.find((l) => l.command === 'forward')
  const request = lines.find((l) => l.status === 204)
  assert.is(forward?.req, request?.req)
})

test('the level of a request line', () => {
  const cases: [string, number, boolean, string][] = [
    ['GET', 200, false, 'debug'],
    ['HEAD', 304, false, 'debug'],
    ['GET', 404, false, 'info'],
    ['PUT', 204, true, 'info'],
    ['DELETE', 204, false, 'info'], // a forget, say: it changed what the controller remembers
    ['PUT', 499, true, 'info'], // its client left, but the change was made
    ['PUT', 499, false, 'debug'],
    ['GET', 503, false, 'warn'],
    ['PUT', 500, true, 'warn'],
  ]
  for (const [method, status, changed, level] of cases)
    assert.is(requestLevel(method, status, changed), level, `${method} ${status} ${changed}`)
})

test.run()
