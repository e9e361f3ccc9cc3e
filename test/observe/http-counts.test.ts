// REST requests counted per method, route and status, without a key made per request.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { HttpCounts } from '../../src/observe/http-counts.ts'

test('each method, route and status is a series of its own, counted as often as seen', () => {
  const counts = new HttpCounts()
  const seen: [string, string, number][] = [
    ['GET', '/v1/nfvs/:client_id', 200],
    ['GET', '/v1/nfvs/:client_id', 200],
    ['DELETE', '/v1/nfvs/:client_id', 200],
    ['GET', '/v1/nfvs/:client_id', 404],
    ['GET', '/v1/processes', 200],
  ]
  for (const [method, route, status] of seen) counts.observe(method, route, status)
  const series = [...counts].map(
    ({ labels: l, count }) => `${l.method} ${l.route} ${l.status} ${count}`,
  )
  assert.equal(series.sort(), [
    'DELETE /v1/nfvs/:client_id 200 1',
    'GET /v1/nfvs/:client_id 200 2',
    'GET /v1/nfvs/:client_id 404 1',
    'GET /v1/processes 200 1',
  ])
})

test.run()
