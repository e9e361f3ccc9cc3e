// What node's HTTP layer does below hono, seen over raw loopback sockets: parser errors, 204s,
// bodies that would overflow the stack, clients that leave, canonical ids, shutdown.
import { once } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { connect } from 'node:net'
import { Writable } from 'node:stream'
import { queryObjects } from 'node:v8'
import { pino } from 'pino'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken } from '../../src/auth/clients.ts'
import { commandsOf, withHarness } from '../helpers/harness.ts'
import { withRemembering } from '../helpers/remember.ts'

type RawReply = { status: number; headers: Record<string, string>; head: string; body: string }

/** Sends bytes as they are and reads until the server closes the connection. */
async function raw(port: number, request: string): Promise<RawReply> {
  const socket = connect(port, '127.0.0.1')
  let text = ''
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
  socket.write(request)
  await once(socket, 'close')
  return parseReply(text)
}

function parseReply(text: string): RawReply {
  const end = text.indexOf('\r\n\r\n')
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n')
  const headers = Object.fromEntries(
    lines.map((l) => [
      l.slice(0, l.indexOf(':')).toLowerCase(),
      l.slice(l.indexOf(':') + 1).trim(),
    ]),
  )
  const head = text.slice(0, end)
  return { status: Number(statusLine.split(' ')[1]), headers, head, body: text.slice(end + 4) }
}

test('requests node refuses to parse get a text/plain answer saying what was wrong', () =>
  withHarness([], async (h) => {
    const port = h.controller.apiPort
    const cases: [string, number, RegExp][] = [
      ['FOO /v1/processes HTTP/1.1\r\nHost: x\r\n\r\n', 501, /unknown HTTP method/],
      ['PUT /v1/nfvs/1/forward HTTP/1.1\r\nContent-Length: ten\r\n\r\n', 400, /Content-Length/],
      ['POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 400, /Content-Length/],
      ['GET /v1/processes HTTP/1.1\r\nBad Header: 1\r\n\r\n', 400, /invalid character/],
      ['GET /v1/processes HTTQ/1.1\r\n\r\n', 400, /malformed request line/],
      [`GET /v1/processes HTTP/1.1\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`, 431, /too large/],
    ]
    for (const [request, status, text] of cases) {
      const reply = await raw(port, request)
      assert.is(reply.status, status, request)
      assert.match(reply.headers['content-type'] ?? '', /^text\/plain/, request)
      assert.match(reply.body, text, request)
    }
  }))

test('a body nested 30000 levels deep is a 400 describing it by type, and nothing is sent', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const deep = '['.repeat(30_000) + ']'.repeat(30_000)
    const reply = await h.api('PUT', '/v1/nfvs/1/forward', `{"action": ${deep}}`)
    assert.is(reply.status, 400)
    assert.match(reply.type!, /^text\/plain/)
    assert.match(reply.text, /invalid key\(action\): an array of 1 items/)
    assert.equal(commandsOf(h.sim('nfv 1')), [])
  }))

test('204 has no body, no Content-Type and no Content-Length on the wire', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const body = '{"action":"start"}'
    const reply = await raw(
      h.controller.apiPort,
      `PUT /v1/nfvs/1/forward HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
    )
    assert.is(reply.status, 204)
    assert.is(reply.headers['content-type'], undefined)
    assert.is(reply.headers['content-length'], undefined)
    assert.is(reply.body, '')
  }))

test('304 keeps its ETag and request id, with no Content-Type and no Content-Length', () =>
  withRemembering([], async (h) => {
    const ask = (extra: string) =>
      raw(
        h.controller.apiPort,
        `GET /v1/topology/desired HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`,
      )
    const { etag } = (await ask('')).headers
    assert.ok(etag)
    const reply = await ask(`If-None-Match: ${etag}\r\nX-Request-Id: poll-1\r\n`)
    assert.is(reply.status, 304)
    assert.is(reply.headers.etag, etag)
    assert.is(reply.headers['x-request-id'], 'poll-1')
    assert.is(reply.headers['content-type'], undefined)
    assert.is(reply.headers['content-length'], undefined)
    assert.is(reply.body, '')
  }))

test("every answer carries its request id once: the client's when safe, else one of ours", () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const ask = (line: string, extra = '', body = '') =>
      raw(
        h.controller.apiPort,
        `${line} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}` +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
      )
    const ids = new Set<string>()
    for (const [line, status, body] of [
      ['GET /v1/processes', 200, ''],
      ['PUT /v1/nfvs/1/forward', 204, '{"action":"start"}'],
      ['PUT /v1/nfvs/1/forward', 400, '{"action":"go"}'],
      ['GET /v1/nfvs/9', 404, ''],
      ['GET /nowhere', 404, ''],
      ['DELETE /v1/processes', 405, ''],
    ] as const) {
      const reply = await ask(line, '', body)
      assert.is(reply.status, status, line)
      const id = reply.headers['x-request-id']
      assert.match(id ?? '', /^[0-9a-z]+-[0-9a-z]+$/, `${line} ${status}: X-Request-Id`)
      ids.add(id!)
      assert.is(reply.head.match(/^x-request-id:/gim)?.length, 1, `${line}: one X-Request-Id`)
    }
    assert.is(ids.size, 6, 'one id per request')
    const mine = await ask('GET /v1/processes', 'X-Request-Id: job-7.step:2\r\n')
    assert.is(mine.headers['x-request-id'], 'job-7.step:2')
    const unsafe = await ask('GET /v1/processes', 'X-Request-Id: a b\r\n')
    assert.match(unsafe.headers['x-request-id'] ?? '', /^[0-9a-z]+-[0-9a-z]+$/)
  }))

test("a request builds no undici Headers: its id, length and token are read from node's own", () => {
  const token = newToken()
  const clients = [{ name: 'ops', scope: 'write' as const, digest: digestOf(token) }]
  return withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const sim = h.sim('nfv 1')
      const body = '{"action":"start"}'
      const request =
        `PUT /v1/nfvs/1/forward HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
        `Authorization: Bearer ${token}\r\nX-Request-Id: job-7.step:2\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}`
      assert.is((await raw(h.controller.apiPort, request)).status, 204) // everything loaded
      // Counted after a full collection: what a request holding its answer keeps alive. The
      // request waits for its process, so whatever it built so far is still referenced.
      const before = queryObjects(Headers, { format: 'count' })
      const release = sim.hold()
      const sent = once(sim, 'command')
      const answer = raw(h.controller.apiPort, request)
      await sent
      const during = queryObjects(Headers, { format: 'count' })
      release()
      const reply = await answer
      assert.is(reply.status, 204, reply.body)
      assert.is(reply.headers['x-request-id'], 'job-7.step:2')
      assert.is(during - before, 0, 'undici Headers made by the request and still held')
    },
    { clients, commandTimeoutMs: 60_000 }, // a heap walk under a loaded CPU takes its time
  )
})

test('an answer is made with no undici Headers: a 204, a 200 with its age, a 304 with its ETag', () =>
  withRemembering([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const ask = (line: string, extra = '') =>
      raw(h.controller.apiPort, `${line} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`)
    const body = '{"action":"start"}'
    const put = () => ask('PUT /v1/nfvs/1/forward', `Content-Length: ${body.length}\r\n\r\n${body}`)
    await put() // everything loaded
    const { etag } = (await ask('GET /v1/topology/desired')).headers
    // Every Headers made from here on is counted: the controller runs in this process.
    const Undici = globalThis.Headers
    let made = 0
    globalThis.Headers = class extends Undici {
      // @hono/node-server tells a Headers it is given (RESPONSE_ALREADY_SENT's) with instanceof.
      static override [Symbol.hasInstance] = (value: unknown) => value instanceof Undici
      constructor(init?: HeadersInit) {
        super(init)
        made++
      }
    }
    try {
      assert.is((await put()).status, 204)
      const read = await ask('GET /v1/nfvs/1')
      assert.is(read.status, 200)
      assert.ok(read.headers['x-status-age-ms'])
      const cached = await ask('GET /v1/topology/desired', `If-None-Match: ${etag}\r\n`)
      assert.is(cached.status, 304)
      assert.is(cached.headers.etag, etag)
    } finally {
      globalThis.Headers = Undici
    }
    assert.is(made, 0, 'undici Headers made')
  }))

test("node's server has one 'request' listener, the connection guard told from it", () =>
  withHarness([], (h) => {
    assert.is(h.controller.httpServer.listenerCount('request'), 1)
    return Promise.resolve()
  }))

test('a non-canonical client id such as -0 is not a URL we serve', () =>
  withHarness([{ kind: 'nfv', clientId: 0 }], async (h) => {
    assert.is((await h.api('GET', '/v1/nfvs/0')).status, 200)
    for (const path of ['/v1/nfvs/-0', '/v1/nfvs/00', '/v1/nfvs/+0', '/v1/vfs/-0'])
      assert.is((await h.api('GET', path)).status, 404, path)
    assert.equal(commandsOf(h.sim('nfv 0')), ['status'])
  }))

/** A pino logger at debug whose lines the test can read. */
function capturedLog() {
  const lines: { level: number; msg: string; status?: number; req?: string }[] = []
  const waiters: (() => void)[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number])
      for (const wake of waiters.splice(0)) wake()
      done()
    },
  })
  const log = pino({ level: 'debug' }, stream)
  const waitFor = async (msg: string) => {
    for (;;) {
      const hit = lines.find((l) => l.msg === msg)
      if (hit) return hit
      await new Promise<void>((resolve) => waiters.push(resolve))
    }
  }
  return { log, lines, waitFor }
}

test('a request target that is not a path is answered in text, with a request id, and logged', async () => {
  const { log, lines } = capturedLog()
  await withHarness(
    [],
    async (h) => {
      const cases: [string, number, RegExp][] = [
        ['POST * HTTP/1.1', 400, /must be a path starting with \/, got "\*"/],
        ['GET * HTTP/1.1', 400, /must be a path/],
        ['OPTIONS * HTTP/1.1', 501, /OPTIONS \* .* not supported/],
        ['CONNECT example.com:443 HTTP/1.1', 501, /CONNECT is not supported/],
        ['GET example.com:80 HTTP/1.1', 400, /invalid request target/],
      ]
      for (const [line, status, text] of cases) {
        const head = `${line}\r\nHost: x\r\nContent-Length: 0\r\n\r\n`
        const reply = await raw(h.controller.apiPort, head)
        assert.is(reply.status, status, line)
        assert.match(reply.headers['content-type'] ?? '', /^text\/plain/, line)
        assert.match(reply.body, text, line)
        const id = reply.headers['x-request-id']
        assert.ok(id, `${line}: X-Request-Id`)
        const logged = lines.find((l) => l.msg === 'http request' && l.req === id)
        assert.is(logged?.status, status, `${line}: logged`)
      }
      const metrics = (await h.api('GET', '/metrics')).text
      for (const method of ['OPTIONS', 'CONNECT'])
        assert.ok(
          metrics.includes(`{method="${method}",route="unmatched",status="501"} 1`),
          `${method} counted`,
        )
    },
    { log },
  )
})

test('a body that comes after its head, in two pieces, is read whole', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const body = '{"action":"start"}'
    const socket = connect(h.controller.apiPort, '127.0.0.1').setNoDelay(true)
    let text = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
    const closed = once(socket, 'close')
    const head =
      'PUT /v1/nfvs/1/forward HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
      `Content-Length: ${body.length}\r\n\r\n`
    await new Promise<void>((resolve) => socket.write(head + body.slice(0, 5), () => resolve()))
    // Answered on another connection once the controller has read what came before it: the
    // head and the first piece are in (node's parser has 5 of the body's bytes).
    assert.is((await h.api('GET', '/v1/processes')).status, 200)
    socket.write(body.slice(5))
    await closed
    const reply = parseReply(text)
    assert.is(reply.status, 204, reply.body)
    assert.equal(commandsOf(h.sim('nfv 1')), ['forward'])
  }))

test('a body taken at once leaves its request ended before the answer goes out', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const server = h.controller.httpServer
    const ended: boolean[] = []
    const watch = (req: IncomingMessage, res: ServerResponse) =>
      res.once('finish', () => ended.push(req.readableEnded))
    server.on('request', watch)
    try {
      const body = '{"action":"start"}'
      const reply = await raw(
        h.controller.apiPort,
        `PUT /v1/nfvs/1/forward HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
      )
      assert.is(reply.status, 204, reply.body)
    } finally {
      server.off('request', watch)
    }
    // Else @hono/node-server drains it after the answer (listeners and a timer, each request).
    assert.equal(ended, [true])
  }))

test('a client that leaves mid-body is a 499 in the metrics and a debug line, not an error', async () => {
  const { log, lines, waitFor } = capturedLog()
  await withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const socket = connect(h.controller.apiPort, '127.0.0.1')
      const head = 'PUT /v1/nfvs/1/forward HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n'
      socket.write(`${head}{"act`, () => socket.destroy()) // once the bytes are out
      const line = await waitFor('http request')
      assert.is(line.status, 499)
      assert.is(line.level, 20, 'logged at debug')
      assert.equal(
        lines.filter((l) => l.level >= 50),
        [],
      )
      const metrics = (await h.api('GET', '/metrics')).text
      assert.match(metrics, /spp_http_requests_total\{[^}]*status="499"[^}]*\} 1/)
      assert.equal(commandsOf(h.sim('nfv 1')), [])
    },
    { log },
  )
})

test('a client that leaves mid-body without a Content-Length is a 499 too, not an error', async () => {
  const { log, lines, waitFor } = capturedLog()
  await withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const socket = connect(h.controller.apiPort, '127.0.0.1')
      const head =
        'PUT /v1/nfvs/1/forward HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'
      socket.write(`${head}5\r\n{"act\r\n`, () => socket.destroy())
      const line = await waitFor('http request')
      assert.is(line.status, 499)
      assert.is(line.level, 20, 'logged at debug')
      assert.equal(
        lines.filter((l) => l.level >= 50),
        [],
      )
      assert.equal(commandsOf(h.sim('nfv 1')), [])
    },
    { log },
  )
})

test('while stopping, the answer to a request in flight closes its keep-alive connection', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const socket = connect(h.controller.apiPort, '127.0.0.1')
    let text = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
    const release = h.sim('nfv 1').hold() // the answer waits until the controller is stopping
    socket.write('GET /v1/nfvs/1 HTTP/1.1\r\nHost: x\r\n\r\n') // keep-alive: HTTP/1.1's default
    await once(h.sim('nfv 1'), 'command')
    const stopped = h.controller.close()
    release()
    await once(socket, 'close')
    await stopped
    const reply = parseReply(text)
    assert.is(reply.status, 200)
    assert.is(reply.headers.connection, 'close')
  }))

test('while stopping, an event stream that ends closes its keep-alive connection at once', () =>
  withHarness([], async (h) => {
    const socket = connect(h.controller.apiPort, '127.0.0.1')
    socket.on('error', () => {}) // a reset is as good as a close here
    let text = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk
      // The stream's end: ask again on the same connection, which must be gone by now.
      if (text.endsWith('0\r\n\r\n')) socket.write('GET /v1/processes HTTP/1.1\r\nHost: x\r\n\r\n')
    })
    socket.write('GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\n')
    await once(socket, 'data') // the stream's head: it is subscribed
    await h.controller.close()
    await once(socket, 'close')
    assert.is(text.split('HTTP/1.1 ').length - 1, 1, 'no answer to the request after the stream')
  }))

test('an accept error after start (EMFILE) is logged and the API goes on serving', async () => {
  const { log, lines } = capturedLog()
  await withHarness(
    [],
    async (h) => {
      // libuv absorbs a real EMFILE with its spare descriptor; node reports what it cannot absorb.
      const emfile = Object.assign(new Error('accept EMFILE'), {
        code: 'EMFILE',
        syscall: 'accept',
      })
      h.controller.httpServer.emit('error', emfile)
      assert.is((await h.api('GET', '/v1/processes')).status, 200)
      assert.ok(lines.some((l) => l.level === 50 && l.msg === 'REST listener error; still serving'))
    },
    { log },
  )
})

test.run()
