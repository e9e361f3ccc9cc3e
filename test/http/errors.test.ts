// Every failure as an HTTP answer: the status of each error code, text/plain, Retry-After, 404s;
// over a loopback socket, through the controller's node server.
import { Hono } from 'hono'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ControllerError, type ErrorCode } from '../../src/protocol/errors.ts'
import { notFound, onError } from '../../src/http/errors.ts'
import { withServed } from '../helpers/served.ts'

const logged: Error[] = []
const app = new Hono()
  .get('/fail/:code', (c) => {
    throw new ControllerError(c.req.param('code') as ErrorCode, `failed: ${c.req.param('code')}`)
  })
  .get('/bug', () => {
    throw new TypeError('x is undefined')
  })
  .onError(onError((err) => logged.push(err)))
  .notFound(notFound)

const TABLE: [ErrorCode, number][] = [
  ['INVALID_REQUEST', 400],
  ['COMMAND_REJECTED', 400],
  ['PROCESS_NOT_FOUND', 404],
  ['BODY_TOO_LARGE', 413],
  ['CLIENT_GONE', 499],
  ['REPLY_TIMEOUT', 500],
  ['PROCESS_UNRESPONSIVE', 500],
  ['CONNECTION_CLOSED', 500],
  ['BAD_REPLY', 500],
  ['INTERNAL', 500],
  ['QUEUE_FULL', 503],
  ['PROCESS_UNAVAILABLE', 503],
]

for (const [code, status] of TABLE) {
  test(`${code} → ${status}, text/plain, the message as it is, then a line end`, () =>
    withServed(app.fetch, async ({ fetch }) => {
      const r = await fetch(`/fail/${code}`)
      assert.is(r.status, status)
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain/)
      assert.is(await r.text(), `failed: ${code}\n`)
      assert.is(r.headers.get('retry-after'), code === 'QUEUE_FULL' ? '1' : null)
    }))
}

test('an unexpected error is logged and answered 500 without its message', () =>
  withServed(app.fetch, async ({ fetch }) => {
    const r = await fetch('/bug')
    assert.is(r.status, 500)
    assert.is(await r.text(), 'internal error in the controller\n')
    assert.equal(
      logged.map((e) => e.message),
      ['x is undefined'],
    )
  }))

test('an unknown path is a 404 naming it, quoted and cut', () =>
  withServed(app.fetch, async ({ fetch }) => {
    const r = await fetch(`/nowhere/${'x'.repeat(200)}`)
    assert.is(r.status, 404)
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/)
    assert.is(await r.text(), `Not found: "/nowhere/${'x'.repeat(111)}…"\n`)
  }))

test.run()
