// The REST connection budget in the controller: keep-alive, event streams, and processes unaffected.
import { once } from 'node:events'
import { Agent, get } from 'node:http'
import { connect, type Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { KEEP_ALIVE_MS } from '../../src/http/server.ts'
import { withHarness } from '../helpers/harness.ts'

test('an idle keep-alive connection is closed by the controller after 5 s', () =>
  withHarness([], async (h) => {
    assert.is(KEEP_ALIVE_MS, 5000)
    assert.is(h.controller.httpServer.keepAliveTimeout, KEEP_ALIVE_MS)
    // The agent keeps its sockets for ever: a close can only come from the controller.
    const agent = new Agent({ keepAlive: true })
    try {
      const req = get({
        host: '127.0.0.1',
        port: h.controller.apiPort,
        path: '/v1/processes',
        agent,
      })
      const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage]
      res.resume()
      await once(res, 'end')
      assert.is(res.headers.connection, 'keep-alive')
      await once(req.socket!, 'close')
    } finally {
      agent.destroy()
    }
  }))

test('with the budget taken by event streams a new REST connection is refused; processes still register', () =>
  withHarness(
    [],
    async (h) => {
      const accepted: Socket[] = []
      h.controller.httpServer.on('connection', (socket: Socket) => accepted.push(socket))
      const streams: Socket[] = []
      try {
        for (let i = 0; i < 3; i++) {
          const s = connect({ host: '127.0.0.1', port: h.controller.apiPort })
          streams.push(s)
          s.write('GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\n')
          await once(s, 'data') // the stream's head: it is being served
        }
        const late = connect({ host: '127.0.0.1', port: h.controller.apiPort })
        late.on('error', () => {})
        late.resume()
        await once(late, 'close')
        await h.connect([{ kind: 'nfv', clientId: 1 }]) // the process ports have their own budget
        // One stream goes: its place is free for a request.
        streams.shift()!.destroy()
        await once(accepted[0]!, 'close')
        assert.equal((await h.api('GET', '/v1/processes')).json(), [
          { type: 'nfv', 'client-id': 1 },
        ])
        const metrics = (await h.api('GET', '/metrics')).text
        assert.match(metrics, /spp_connections_dropped_total\{listener="api",reason="refused"\} 1/)
      } finally {
        for (const s of streams) s.destroy()
      }
    },
    { maxApiConnections: 3 },
  ))

test.run()
