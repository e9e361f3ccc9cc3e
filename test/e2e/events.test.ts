import { once } from 'node:events'
import { connect } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withHarness, type Harness } from '../helpers/harness.ts'

type Sse = { id?: string; event: string; data: Record<string, unknown> }

/** Opens the event stream; `next(n)` resolves with the next n events, in order. */
async function openEvents(h: Harness, headers: Record<string, string> = {}) {
  const controller = new AbortController()
  const response = await fetch(`http://127.0.0.1:${h.controller.apiPort}/v1/events`, {
    headers,
    signal: controller.signal,
  })
  assert.is(response.status, 200)
  assert.match(response.headers.get('content-type')!, /^text\/event-stream/)
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  const events: Sse[] = []
  const parse = () => {
    let end: number
    while ((end = text.indexOf('\n\n')) !== -1) {
      const block = text.slice(0, end)
      text = text.slice(end + 2)
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((l) => !l.startsWith(':'))
          .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
      )
      if (fields.event)
        events.push({
          id: fields.id,
          event: fields.event,
          data: JSON.parse(fields.data ?? '{}') as Record<string, unknown>,
        })
    }
  }
  return {
    async next(n: number): Promise<Sse[]> {
      // A failsafe, not a timing assertion: a missing event fails the test instead of hanging it.
      const failsafe = setTimeout(() => controller.abort(), 10_000)
      while (events.length < n) {
        const { value, done } = await reader.read().catch(() => ({ value: '', done: true }))
        if (done) throw new Error(`stream ended after ${events.length} events`)
        text += value
        parse()
      }
      clearTimeout(failsafe)
      return events.splice(0, n)
    },
    /** Resolves when the server ends the stream, or cuts its connection. */
    async ended(): Promise<boolean> {
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return true
    },
    close: () => controller.abort(),
  }
}

test('a scripted sequence of requests and process connects/disconnects arrives in order', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2 },
    ],
    async (h) => {
      const stream = await openEvents(h)
      try {
        await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
        await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' })
        await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
        await h.api('POST', '/v1/vfs/2/components', { name: 'fw1', core: 2, type: 'forward' })
        // An 18.11 vf runs one type per core: it refuses this one itself.
        await h.api('POST', '/v1/vfs/2/components', { name: 'mg1', core: 2, type: 'merge' })
        await h.connect([{ kind: 'mirror', clientId: 3 }])
        await h.api('DELETE', '/v1/nfvs/1')
        const events = await stream.next(8)
        assert.equal(
          events.map((e) => [e.event, e.data.kind, e.data['client-id']]),
          [
            ['port.added', 'nfv', 1],
            ['nfv.status', 'nfv', 1], // read before the patch, which is checked against its ports
            ['patch.set', 'nfv', 1],
            ['nfv.status', 'nfv', 1],
            ['component.started', 'vf', 2],
            ['command.failed', 'vf', 2],
            ['process.identified', 'mirror', 3],
            ['process.disconnected', 'nfv', 1],
          ],
        )
        assert.equal(events[3]!.data.status, 'Running')
        assert.equal(events[7]!.data.reason, 'exited on request')
        const ids = events.map((e) => Number(e.id))
        assert.equal(
          ids,
          [...ids].sort((a, b) => a - b),
          'ids increase',
        )
      } finally {
        stream.close()
      }
    },
  ))

test('a client reconnecting with Last-Event-ID gets what it missed, then what follows', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const first = await openEvents(h)
    await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
    const [seen] = await first.next(1)
    first.close()
    await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' }) // missed
    await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:2' }) // missed
    const again = await openEvents(h, { 'Last-Event-ID': seen!.id! })
    try {
      await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:3' })
      const events = await again.next(3)
      assert.equal(
        events.map((e) => e.data.port),
        ['ring:1', 'ring:2', 'ring:3'],
      )
    } finally {
      again.close()
    }
  }))

test('a Last-Event-ID the buffer no longer holds is told with events.lost, then the buffer follows', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      for (const port of ['ring:0', 'ring:1', 'ring:2', 'ring:3'])
        await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port })
      const stream = await openEvents(h, { 'Last-Event-ID': '1' })
      try {
        const events = await stream.next(3)
        assert.equal(
          events.map((e) => e.event),
          ['events.lost', 'port.added', 'port.added'],
        )
        assert.equal(
          events.slice(1).map((e) => e.data.port),
          ['ring:2', 'ring:3'],
        )
      } finally {
        stream.close()
      }
    },
    { eventBufferSize: 2 },
  ))

test('a client that falls too far behind is dropped, and the controller goes on serving', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const slow = await openEvents(h)
      await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }) // the stream is live
      await slow.next(1)
      for (let i = 0; i < 100; i++) h.controller.hub.publish('burst', { i }) // faster than any client reads
      assert.ok(await slow.ended(), 'the stream was ended by the server')
      assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
      const fresh = await openEvents(h)
      try {
        await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' })
        assert.equal((await fresh.next(1))[0]!.data.port, 'ring:1')
      } finally {
        fresh.close()
      }
    },
    { maxPendingEventsPerClient: 8 },
  ))

test('a client that stops reading is dropped as soon as it is too far behind', () =>
  withHarness(
    [],
    async (h) => {
      const socket = connect(h.controller.apiPort, '127.0.0.1')
      socket.write('GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\n')
      await once(socket, 'data') // the response head: the stream is subscribed
      socket.pause() // and never read again, until the end of the test
      assert.is(h.controller.hub.subscribers, 1)
      // Far more than the socket buffers hold: the stream's writes stop returning.
      const big = 'x'.repeat(64 * 1024)
      for (let i = 0; i < 200; i++) h.controller.hub.publish('burst', { i, big })
      assert.is(h.controller.hub.subscribers, 0, 'dropped when the event was queued')
      let received = 0
      socket.on('data', (chunk: Buffer) => (received += chunk.length))
      socket.resume()
      await once(socket, 'close')
      assert.ok(received < 20 * big.length, `the server sent only what it had, ${received} bytes`)
    },
    { maxPendingEventsPerClient: 8 },
  ))

test('a Last-Event-ID replay sends at most the per-client bound, events.lost for the rest', () =>
  withHarness(
    [],
    async (h) => {
      for (let i = 1; i <= 6; i++) h.controller.hub.publish('burst', { i })
      const stream = await openEvents(h, { 'Last-Event-ID': '0' })
      try {
        const events = await stream.next(4)
        assert.equal(
          events.map((e) => e.event),
          ['events.lost', 'burst', 'burst', 'burst'],
        )
        assert.equal(events[0]!.data, { since: '0', oldest: 4 })
        assert.equal(
          events.slice(1).map((e) => e.data.i),
          [4, 5, 6],
        )
      } finally {
        stream.close()
      }
    },
    { eventBufferSize: 100, maxPendingEventsPerClient: 3 },
  ))

test.run()
