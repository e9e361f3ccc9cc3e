import { once } from 'node:events'
import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness } from '../helpers/harness.ts'

test('hundreds of silent peers on both process ports do not keep real processes from registering', () =>
  withHarness(
    [],
    async (h) => {
      const peers: Socket[] = []
      let evicted = 0
      try {
        for (let i = 0; i < 300; i++) {
          const peer = connect({
            host: '127.0.0.1',
            port: i % 3 === 0 ? h.controller.primaryPort : h.controller.secondaryPort,
          })
          peer.on('error', () => {})
          peer.resume() // a paused socket would never see the eviction
          peer.on('close', () => evicted++)
          peers.push(peer)
          await once(peer, 'connect')
        }
        await h.connect([
          { kind: 'primary' },
          { kind: 'nfv', clientId: 1 },
          { kind: 'vf', clientId: 2 },
        ])
        assert.equal((await h.api('GET', '/v1/processes')).json(), [
          { type: 'primary' },
          { type: 'nfv', 'client-id': 1 },
          { type: 'vf', 'client-id': 2 },
        ])
        assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
        assert.ok(
          evicted >= 300 - 32,
          `${evicted} of 300 silent peers evicted beyond the cap of 32`,
        )
      } finally {
        for (const peer of peers) peer.destroy()
      }
    },
    { maxUnidentified: 32, commandTimeoutMs: 60_000 },
  ))

test('a body over the limit is 413 text/plain, with or without Content-Length, and nothing is sent', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const big = JSON.stringify({ action: 'add', port: 'ring:0', pad: 'x'.repeat(200_000) })
      const r = await h.api('PUT', '/v1/nfvs/1/ports', big)
      assert.is(r.status, 413)
      assert.match(r.type!, /^text\/plain/)
      assert.is(r.text, 'request body exceeds 65536 bytes\n')
      // Streamed without a length: refused once the limit is passed, not after reading it all.
      const streamed = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: h.controller.apiPort,
            method: 'PUT',
            path: '/v1/nfvs/1/ports',
          },
          (res) => {
            res.resume()
            resolve(res.statusCode!)
            req.destroy()
          },
        )
        req.on('error', reject)
        const chunk = Buffer.alloc(16 * 1024, ' ')
        const pump = () => {
          while (!req.destroyed && req.write(chunk));
        }
        req.on('drain', pump)
        pump()
      })
      assert.is(streamed, 413)
      assert.equal(commandsOf(h.sim('nfv 1')), [])
    },
    { maxBodyBytes: 64 * 1024 },
  ))

test('a client that sends half a request and stops is cut off, and nothing is sent', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const client = connect({ host: '127.0.0.1', port: h.controller.apiPort })
      client.on('error', () => {})
      await once(client, 'connect')
      client.write('PUT /v1/nfvs/1/ports HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"act')
      let answer = ''
      client.on('data', (chunk: Buffer) => (answer += chunk.toString()))
      await once(client, 'close')
      assert.match(answer, /^HTTP\/1\.1 408/, JSON.stringify(answer))
      assert.equal(commandsOf(h.sim('nfv 1')), [])
    },
    { httpRequestTimeoutMs: 300 },
  ))

test.run()
