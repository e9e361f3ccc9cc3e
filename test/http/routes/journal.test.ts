// GET /v1/journal over a real socket, on entries written with store.journal() in a temp state dir.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { entryAt, withJournalServer } from '../../helpers/journal-server.ts'

const T0 = Date.UTC(2026, 0, 1, 12)
const MIN = 60_000

type Entry = { id: number; time: string; by: string; processes: string[] }

const get = async (url: string, query = '') => {
  const response = await fetch(`${url}/v1/journal${query}`)
  const text = await response.text()
  return { status: response.status, type: response.headers.get('content-type'), text }
}
const entries = async (url: string, query = '') => {
  const answer = await get(url, query)
  assert.is(answer.status, 200, answer.text)
  return JSON.parse(answer.text) as Entry[]
}
const times = (list: Entry[]) => list.map((e) => (Date.parse(e.time) - T0) / MIN)

test('newest first, as JSON; each filter, together, and limit', () =>
  withJournalServer(async ({ url, store }) => {
    assert.equal(await entries(url), [], 'an empty journal is an empty list')
    store!.journal(entryAt(T0 + 1 * MIN, 'ops', ['vf:2']))
    store!.journal(entryAt(T0 + 3 * MIN, 'local', ['nfv:1']))
    store!.journal(entryAt(T0 + 2 * MIN, 'ops', ['nfv:1', 'vf:2']))
    store!.journal({ ...entryAt(T0 + 4 * MIN, 'restore', ['vf:2']), body: undefined })

    const all = await entries(url)
    assert.equal(times(all), [4, 3, 2, 1])
    assert.equal(all[3], {
      id: 1,
      time: '2026-01-01T12:01:00.000Z',
      by: 'ops',
      request_id: `req-${(T0 + MIN) % 100_000}`,
      method: 'PUT',
      path: '/v1/vfs/2/patches',
      body: { src: 'ring:0', dst: 'phy:0' },
      commands: [{ line: 'patch ring:0 phy:0', outcome: 'ok' }],
      status: 204,
      processes: ['vf:2'],
    })
    assert.not.ok('body' in all[0]!, 'an entry without a body has none')
    assert.equal(times(await entries(url, '?process=vf:2')), [4, 2, 1])
    assert.equal(times(await entries(url, '?process=vfs/2')), [4, 2, 1]) // as parseId reads it
    assert.equal(times(await entries(url, '?by=ops')), [2, 1])
    assert.equal(times(await entries(url, '?since=2026-01-01T12:02:00Z')), [4, 3, 2])
    assert.equal(times(await entries(url, '?since=2026-01-01T13:02:00%2B01:00&by=ops')), [2])
    assert.equal(
      times(await entries(url, '?process=vf:2&by=ops&since=2026-01-01T12:00:00Z')),
      [2, 1],
    )
    assert.equal(times(await entries(url, '?limit=2')), [4, 3])
    assert.equal(times(await entries(url, '?process=nfv:1&limit=1')), [3])
    assert.equal(await entries(url, '?by=nobody'), [])
  }))

test('a bad query is a text/plain 400 naming the parameter', () =>
  withJournalServer(async ({ url, store }) => {
    store!.journal(entryAt(T0, 'ops', ['vf:2']))
    const cases: [string, RegExp][] = [
      ['?process=vf:x', /^invalid key\(query\.process\): "vf:x" \(a process as vf:2, nfv:1/],
      ['?process=vf:70000', /^invalid key\(query\.process\): "vf:70000" \(a process as/],
      ['?process=vf', /^invalid key\(query\.process\)/],
      ['?since=yesterday', /^invalid key\(query\.since\): "yesterday" \(an ISO 8601 time/],
      ['?limit=0', /^invalid key\(query\.limit\): 0 \(an integer from 1 to 1000\)/],
      ['?limit=1001', /^invalid key\(query\.limit\): 1001 \(an integer from 1 to 1000\)/],
      ['?limit=ten', /^invalid key\(query\.limit\): "ten" \(an integer from 1 to 1000\)/],
      ['?by=', /^invalid key\(query\.by\): "" \(a name\)/],
      ['?limit=1&limit=2', /^invalid key\(query\.limit\): an array of 2 items \(given once/],
      ['?proces=vf:2', /^invalid key\(query\.proces\): .*not a parameter of GET \/v1\/journal/],
    ]
    for (const [query, message] of cases) {
      const answer = await get(url, query)
      assert.is(answer.status, 400, `${query}: ${answer.text}`)
      assert.match(answer.type ?? '', /^text\/plain/)
      assert.match(answer.text, message, query)
    }
  }))

test('without a store (--state-dir none) it answers 404, saying why; a bad query is still 400', () =>
  withJournalServer(
    async ({ url }) => {
      const answer = await get(url)
      assert.is(answer.status, 404)
      assert.match(answer.type ?? '', /^text\/plain/)
      assert.is(
        answer.text,
        'This controller keeps no journal: it was started with --state-dir none.\n',
      )
      assert.is((await get(url, '?limit=0')).status, 400)
    },
    { journal: false },
  ))

test.run()
