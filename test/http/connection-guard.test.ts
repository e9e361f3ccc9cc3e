// The REST connection guard over real sockets, on a clock the test moves: deadlines and the budget.
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Registry } from '../../src/actors/registry.ts'
import { connectionGuard } from '../../src/http/connection-guard.ts'
import { startHttpServer } from '../../src/http/server.ts'
import { createMetrics } from '../../src/observe/metrics.ts'
import { captureLogs } from '../helpers/log-capture.ts'

type Held = { path: string; release: () => void }

/** A timer the guard armed: it fires when the test says. */
type Timer = { ms: number; fire: () => void; cancelled: boolean }

/**
 * A server whose /hold/* requests wait until the test releases them; the guard's clock is
 * `clock.now`, and its timers fire only when the test fires them (`timers`).
 */
async function serve(maxConnections: number) {
  const clock = { now: 0 }
  const timers: Timer[] = []
  const { log, lines } = captureLogs('debug')
  const metrics = createMetrics(new Registry())
  const guard = connectionGuard({
    maxConnections,
    firstRequestMs: 1000,
    log,
    metrics,
    now: () => clock.now,
    after(ms, callback) {
      const timer: Timer = { ms, cancelled: false, fire: callback }
      timers.push(timer)
      return () => void (timer.cancelled = true)
    },
  })
  const held: Held[] = []
  const waiting = new Set<() => void>()
  const http = await startHttpServer({
    fetch: async (request) => {
      const { pathname } = new URL(request.url)
      if (pathname.startsWith('/hold/')) {
        await new Promise<void>((release) => {
          held.push({ path: pathname, release })
          for (const wake of waiting) wake()
        })
      }
      return new Response(`done ${pathname}`)
    },
    listen: { host: '127.0.0.1', port: 0 },
    requestTimeoutMs: 60_000, // node's own timeouts stay out of the way: only the guard acts
    guard,
    log,
    metrics,
  })
  const accepted: Socket[] = []
  http.server.on('connection', (socket: Socket) => accepted.push(socket))
  const clients: Client[] = []
  /** A client connection, once the server has accepted it (it reads whatever comes, or nothing). */
  const open = async (reads = true) => {
    const count = accepted.length
    const socket = connect({ host: '127.0.0.1', port: http.port! })
    let text = ''
    if (reads) socket.on('data', (chunk: Buffer) => (text += chunk.toString()))
    socket.on('error', () => {})
    const client = { socket, closed: once(socket, 'close'), text: () => text }
    clients.push(client)
    while (accepted.length === count) await once(http.server, 'connection')
    return { ...client, server: accepted[count]! }
  }
  const heldOn = async (path: string) => {
    for (;;) {
      const hit = held.find((h) => h.path === path)
      if (hit) return hit
      await new Promise<void>((wake) => waiting.add(wake))
    }
  }
  const close = async () => {
    for (const c of clients) c.socket.destroy()
    for (const h of held) h.release()
    guard.stop()
    http.server.closeAllConnections()
    await http.stop()
  }
  /** The timer armed now (at most one), taken off the list to be fired. */
  const armed = () => {
    const live = timers.filter((t) => !t.cancelled)
    timers.length = 0
    assert.ok(live.length <= 1, 'one timer at a time')
    return live[0]
  }
  return { clock, guard, server: http.server, open, heldOn, lines, metrics, close, armed }
}
type Client = { socket: Socket; closed: Promise<unknown[]>; text: () => string }

test('a connection that sends nothing is answered 408 and closed once its deadline passes', async () => {
  const s = await serve(10)
  try {
    const c = await s.open()
    s.clock.now = 999
    s.guard.sweep()
    assert.ok(c.server.writable, 'not before its deadline')
    s.clock.now = 1001
    s.guard.sweep()
    await c.closed
    assert.match(c.text(), /^HTTP\/1\.1 408 /)
    assert.not.ok(
      s.lines.some((l) => l.msg === 'http request'),
      'no request to log',
    )
    // One that never reads (so never sees the end) does not keep the descriptor either.
    const deaf = await s.open(false)
    s.clock.now = 2002
    s.guard.sweep()
    await once(deaf.server, 'close')
    assert.match(
      await s.metrics.render(),
      /spp_connections_dropped_total\{listener="api",reason="timeout"\} 2/,
    )
  } finally {
    await s.close()
  }
})

test('a timer is armed only while a connection waits for its first request, for its deadline', async () => {
  const s = await serve(10)
  try {
    assert.is(s.armed(), undefined, 'nothing to wait for: no timer')
    const a = await s.open()
    const first = s.armed()
    assert.is(first?.ms, 1000, "at a's deadline")
    s.clock.now = 300
    const b = await s.open()
    assert.is(s.armed(), undefined, 'b comes later: the same timer serves')
    const served = async (c: typeof a, path: string) => {
      c.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
      while (!c.text().includes(`done ${path}`)) await once(c.socket, 'data')
    }
    await served(a, '/a')
    s.clock.now = 1000
    first!.fire()
    const second = s.armed()
    assert.is(second?.ms, 300, "a's request came: on to b's deadline")
    await served(b, '/b')
    s.clock.now = 1300
    second!.fire()
    assert.is(s.armed(), undefined, 'every connection sent its request: no timer')
    assert.ok(a.server.writable && b.server.writable, 'both kept (keep-alive)')
  } finally {
    await s.close()
  }
})

test('the deadline counts from the connection, not from its first byte', async () => {
  const s = await serve(10)
  try {
    const c = await s.open()
    s.clock.now = 900
    c.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n') // half of the head, then nothing
    await once(c.server, 'data')
    s.clock.now = 1001
    s.guard.sweep()
    await c.closed
    assert.match(c.text(), /^HTTP\/1\.1 408 /)
    assert.ok(s.lines.some((l) => l.msg === 'http request' && l.status === 408))
  } finally {
    await s.close()
  }
})

test('a connection whose request is in is served however long it takes', async () => {
  const s = await serve(10)
  try {
    const c = await s.open()
    c.socket.write('GET /hold/a HTTP/1.1\r\nHost: x\r\n\r\n')
    const held = await s.heldOn('/hold/a')
    s.clock.now = 5000
    s.guard.sweep()
    held.release()
    while (!c.text().includes('done /hold/a')) await once(c.socket, 'data')
    assert.match(c.text(), /^HTTP\/1\.1 200 /)
  } finally {
    await s.close()
  }
})

test('past the budget the oldest connection without a request goes; when all are busy, the new one', async () => {
  const s = await serve(2)
  try {
    const a = await s.open() // silent
    const b = await s.open()
    b.socket.write('GET /hold/b HTTP/1.1\r\nHost: x\r\n\r\n')
    await s.heldOn('/hold/b')
    const c = await s.open() // one too many: a, the silent one, makes room
    await a.closed
    c.socket.write('GET /hold/c HTTP/1.1\r\nHost: x\r\n\r\n')
    const heldC = await s.heldOn('/hold/c')
    const d = await s.open() // b and c are both being served: d is refused
    await d.closed
    assert.is(d.text(), '')
    assert.is(s.guard.open, 2)
    heldC.release()
    while (!c.text().includes('done /hold/c')) await once(c.socket, 'data')
    const metrics = await s.metrics.render()
    assert.match(metrics, /spp_connections_dropped_total\{listener="api",reason="evicted"\} 1/)
    assert.match(metrics, /spp_connections_dropped_total\{listener="api",reason="refused"\} 1/)
    const warned = s.lines.filter((l) => /^REST connection (evicted|refused)/.test(l.msg))
    assert.equal(
      warned.map((l) => [l.level, l.msg]),
      [
        [40, 'REST connection evicted: over the limit'],
        [40, 'REST connection refused: over the limit'],
      ],
    )
    // c, now idle between requests, is the next to make room.
    const e = await s.open()
    assert.not.ok(e.server.destroyed, 'the newcomer is kept')
    await c.closed
  } finally {
    await s.close()
  }
})

test('an accept error (EMFILE) is logged once per burst, and the server goes on', async () => {
  const s = await serve(10)
  try {
    const emfile = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' })
    for (let i = 0; i < 50; i++) s.server.emit('error', emfile)
    const errors = s.lines.filter((l) => l.level === 50)
    assert.equal(
      errors.map((l) => l.msg),
      ['REST listener error; still serving'],
    )
    const c = await s.open()
    c.socket.write('GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    await c.closed
    assert.match(c.text(), /^HTTP\/1\.1 200 /)
  } finally {
    await s.close()
  }
})

test.run()
