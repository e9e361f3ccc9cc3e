// GET /v1/topology polled by dashboards, over loopback, on a status clock the test moves: one read
// per process per bound whoever asks, 304 for an ETag still current, a change shown at once.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness, type Harness } from '../helpers/harness.ts'

const PROCESSES = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]
const LABELS = ['primary', 'nfv 1', 'vf 2', 'mirror 3']

/** Status commands each process received so far, in LABELS' order. */
const statuses = (h: Harness) =>
  LABELS.map((label) => commandsOf(h.sim(label)).filter((line) => line === 'status').length)

/** A harness whose status reads run on `clock.now` (the default bound: 1000 ms). */
function withClock(body: (h: Harness, clock: { now: number }) => Promise<void>) {
  const clock = { now: 0 }
  return withHarness(PROCESSES, (h) => body(h, clock), { statusClock: () => clock.now })
}

test('dashboards polling at once share one status read per process per bound; the answer tells its age', () =>
  withClock(async (h, clock) => {
    const poll = () =>
      Promise.all([
        ...Array.from({ length: 25 }, () => h.api('GET', '/v1/topology')),
        h.api('GET', '/v1/nfvs/1'),
        h.api('GET', '/v1/primary/status'),
      ])
    const first = await poll()
    assert.equal(statuses(h), [1, 1, 1, 1])
    assert.equal([...new Set(first.map((r) => r.status))], [200])
    assert.equal([...new Set(first.map((r) => r.headers.get('x-status-age-ms')))], ['0'])
    clock.now = 999
    const later = await poll()
    assert.equal(statuses(h), [1, 1, 1, 1], 'within the bound: no read')
    assert.equal([...new Set(later.map((r) => r.headers.get('x-status-age-ms')))], ['999'])
    assert.is(later[0].text, first[0].text)
    clock.now = 1000
    await poll()
    assert.equal(statuses(h), [2, 2, 2, 2], 'past it: one more each')
  }))

test('If-None-Match of the current ETag is answered 304 with nothing read or built', () =>
  withClock(async (h, clock) => {
    const first = await h.api('GET', '/v1/topology')
    const etag = first.headers.get('etag')!
    assert.match(etag, /^"[\w-]{27}"$/)
    clock.now = 400
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await h.api('GET', '/v1/topology', undefined, { 'If-None-Match': tag })
      assert.is(r.status, 304, tag)
      assert.is(r.text, '')
      assert.is(r.headers.get('etag'), etag)
      assert.is(r.headers.get('x-status-age-ms'), '400')
    }
    assert.equal(statuses(h), [1, 1, 1, 1])
    const other = await h.api('GET', '/v1/topology', undefined, { 'If-None-Match': '"other"' })
    assert.is(other.status, 200)
    assert.is(other.text, first.text)
  }))

test('a change through the API shows at once in GET /v1/topology and on /v1/events', () =>
  withClock(async (h) => {
    const before = await h.api('GET', '/v1/topology')
    const events = await openEvents(h.controller.apiPort)
    try {
      const put = await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:3' })
      assert.is(put.status, 204)
      const event = await events.next((type) => type === 'port.added')
      assert.equal(event, { kind: 'nfv', 'client-id': 1, port: 'ring:3' })
      // The clock has not moved: only the change can have made these reads again.
      const after = await h.api('GET', '/v1/topology', undefined, {
        'If-None-Match': before.headers.get('etag')!,
      })
      assert.is(after.status, 200)
      assert.is.not(after.headers.get('etag'), before.headers.get('etag'))
      const doc = after.json() as { nfvs: Record<string, { ports: string[] }> }
      assert.ok(doc.nfvs['1']!.ports.includes('ring:3'))
      const own = (await h.api('GET', '/v1/nfvs/1')).json() as { ports: string[] }
      assert.ok(own.ports.includes('ring:3'))
    } finally {
      events.close()
    }
  }))

/** The event stream: `next(match)` resolves with the data of the first event of a matching type. */
async function openEvents(port: number) {
  const abort = new AbortController()
  const response = await fetch(`http://127.0.0.1:${port}/v1/events`, { signal: abort.signal })
  assert.is(response.status, 200)
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  return {
    async next(match: (type: string) => boolean): Promise<unknown> {
      // A failsafe, not a timing assertion: a missing event fails the test instead of hanging it.
      const failsafe = setTimeout(() => abort.abort(), 10_000)
      try {
        for (;;) {
          let end: number
          while ((end = text.indexOf('\n\n')) !== -1) {
            const block = text.slice(0, end)
            text = text.slice(end + 2)
            const type = /^event: (.*)$/m.exec(block)?.[1]
            const data = /^data: (.*)$/m.exec(block)?.[1]
            if (type && match(type)) return JSON.parse(data ?? '{}') as unknown
          }
          const { value, done } = await reader.read()
          if (done) throw new Error('the event stream ended')
          text += value
        }
      } finally {
        clearTimeout(failsafe)
      }
    },
    close: () => abort.abort(),
  }
}

test.run()
