import { once } from 'node:events'
import type { ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withHarness, type Harness } from '../helpers/harness.ts'
import { captureLogs } from '../helpers/log-capture.ts'

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

/** The controller's own response to the next request it is sent. */
const nextResponse = (h: Harness) =>
  new Promise<ServerResponse>((resolve) =>
    h.controller.httpServer.once('request', (_req, res: ServerResponse) => resolve(res)),
  )

/** Sends `request` on a new connection and resolves with the answer's head, once it is all in. */
async function headOf(h: Harness, request: string): Promise<{ socket: Socket; head: string[] }> {
  const socket = connect(h.controller.apiPort, '127.0.0.1')
  socket.write(request)
  let text = ''
  while (!text.includes('\r\n\r\n'))
    text += ((await once(socket, 'data')) as [Buffer])[0].toString('latin1')
  return { socket, head: text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n') }
}

test("the stream's head is streamSSE's, with the request id; logged and counted as a 200", async () => {
  const { log, lines } = captureLogs('debug')
  await withHarness(
    [],
    async (h) => {
      const { socket, head } = await headOf(
        h,
        'GET /v1/events HTTP/1.1\r\nHost: x\r\nX-Request-Id: watch-1\r\n\r\n',
      )
      try {
        assert.equal(head.slice(0, 6), [
          'HTTP/1.1 200 OK',
          'X-Request-Id: watch-1',
          'cache-control: no-cache',
          'connection: keep-alive',
          'content-type: text/event-stream',
          'transfer-encoding: chunked',
        ])
        assert.match(head[6]!, /^Date: /)
        assert.is(head.length, 7)
        const line = lines.find((l) => l.msg === 'http request' && l.path === '/v1/events')
        assert.equal([line?.req, line?.status], ['watch-1', 200])
        const metrics = (await h.api('GET', '/metrics')).text
        assert.match(
          metrics,
          'spp_http_requests_total{method="GET",route="/v1/events",status="200"} 1\n',
        )
      } finally {
        socket.destroy()
      }
    },
    { log },
  )
})

test('HEAD /v1/events is answered with the head alone, and subscribes nothing', () =>
  withHarness([], async (h) => {
    const served = nextResponse(h)
    const response = await fetch(`http://127.0.0.1:${h.controller.apiPort}/v1/events`, {
      method: 'HEAD',
    })
    assert.is(response.status, 200)
    assert.is(response.headers.get('content-type'), 'text/event-stream')
    assert.ok((await served).writableEnded, 'the answer is ended')
    assert.is(h.controller.hub.subscribers, 0)
  }))

test('a client that goes lets go of its subscription, and of the rates it asked for', () =>
  withHarness([], async (h) => {
    const served = nextResponse(h)
    const { socket } = await headOf(h, 'GET /v1/events?rates=1 HTTP/1.1\r\nHost: x\r\n\r\n')
    const { hub } = h.controller
    assert.equal([hub.subscribers, hub.ratesWatchers], [1, 1])
    const closed = once(await served, 'close')
    socket.destroy()
    await closed // the controller has seen the client go
    assert.equal([hub.subscribers, hub.ratesWatchers], [0, 0])
  }))

test('a client that stops reading: node holds at most one event past its buffer for it, then it is dropped at the bound', () =>
  withHarness(
    [],
    async (h) => {
      const served = nextResponse(h)
      const { socket } = await headOf(h, 'GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\n')
      socket.pause() // never read again, until the end of the test
      const res = await served
      const { hub } = h.controller
      const big = 'x'.repeat(64 * 1024)
      let published = 0
      let most = 0
      try {
        // One event at a time, each written (or held back) before the next is published, until
        // the kernel's buffers are full and node's write says to wait: the events then queue up
        // to the bound. (1000 events are far more than the buffers of a loopback connection hold.)
        while (hub.subscribers > 0 && published < 1000) {
          hub.publish('burst', { i: published++, big })
          await new Promise(setImmediate)
          if (hub.subscribers > 0) most = Math.max(most, res.writableLength)
        }
        assert.is(hub.subscribers, 0, `dropped, after ${published} events`)
        assert.ok(res.destroyed, 'cut off, with the bytes node held for it')
        const bound = res.writableHighWaterMark + big.length + 100
        assert.ok(most <= bound, `node held at most ${most} bytes (bound ${bound})`)
      } finally {
        socket.destroy()
      }
    },
    { maxPendingEventsPerClient: 8 },
  ))

test.run()
