// A 19.11 nfv whose reply length is not measured yet is read once before its 19.11 inputs are judged.
import { once } from 'node:events'
import { connect } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withHarness } from '../helpers/harness.ts'
import { NFV_STATUS, nfvId, pad } from '../helpers/peer-2020.ts'

test('a memif port for a 19.11 nfv whose padding is still arriving is judged after one status read', () =>
  withHarness([], async (h) => {
    const socket = connect(h.controller.secondaryPort, '127.0.0.1')
    await once(socket, 'connect')
    const received: string[] = []
    const registered = once(h.controller.registry, 'registered')
    const handshake = pad(nfvId(1))
    socket.on('data', (chunk: Buffer) => {
      const line = chunk.toString('latin1')
      received.push(line)
      if (line === '_get_client_id')
        socket.write(handshake.subarray(0, 4096)) // the rest waits
      else if (line === 'status')
        socket.write(Buffer.concat([handshake.subarray(4096), pad(NFV_STATUS)]))
      else socket.write(pad('{"result":"succeeded","command":"add"}'))
    })
    await registered
    const r = await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'memif:0' })
    assert.is(r.status, 204, r.text)
    assert.equal(received, ['_get_client_id', 'status', 'add memif:0'])
    socket.destroy()
  }))

test.run()
