// The simulated process's test hooks: held replies go out in order on release; faults count
// commands. How it reconnects.
import { once } from 'node:events'
import { createServer, type Server, type Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { SHORT_FRAME_BYTES as FIXED_REPLY_BYTES } from '../../src/protocol/release.ts'
import { SimProcess } from '../../src/sim/sim-process.ts'
import { freePort } from '../helpers/free-port.ts'

/** A bare TCP peer standing in for the controller: it writes lines and collects what comes back. */
async function controllerSide(
  body: (peer: Socket, sim: SimProcess, replies: () => string[]) => Promise<void>,
) {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  const sim = new SimProcess({ kind: 'nfv', clientId: 1, port })
  const accepted = once(server, 'connection') as Promise<[Socket]>
  await sim.start()
  const [peer] = await accepted
  let bytes = Buffer.alloc(0)
  peer.on('data', (chunk: Buffer) => (bytes = Buffer.concat([bytes, chunk])))
  const replies = () => {
    const texts: string[] = []
    for (let at = 0; at + FIXED_REPLY_BYTES <= bytes.length; at += FIXED_REPLY_BYTES)
      texts.push(
        bytes
          .subarray(at, at + FIXED_REPLY_BYTES)
          .toString('latin1')
          .replace(/\0+$/, ''),
      )
    return texts
  }
  try {
    await body(peer, sim, replies)
  } finally {
    sim.stop()
    peer.destroy()
    server.close()
  }
}

/** Writes one command and waits until the process has read it. */
const command = async (peer: Socket, sim: SimProcess, line: string) => {
  const read = once(sim, 'command')
  peer.write(line)
  await read
}

test('a hold keeps every reply until released, then sends them in order; later ones go at once', () =>
  controllerSide(async (peer, sim, replies) => {
    await command(peer, sim, '_get_client_id')
    const release = sim.hold()
    await command(peer, sim, 'forward')
    await command(peer, sim, 'stop')
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(replies(), ['1'], 'only the handshake answered')
    release()
    while (replies().length < 3) await once(peer, 'data')
    assert.equal(replies(), ['1', 'forward', 'stop'])
    await command(peer, sim, 'status')
    while (replies().length < 4) await once(peer, 'data')
    assert.match(replies()[3]!, /"client-id":1/)
  }))

test('silentAt counts commands after the handshake: that one is never answered, the next is', () =>
  controllerSide(async (peer, sim, replies) => {
    sim.faults = { silentAt: 1 }
    await command(peer, sim, '_get_client_id')
    await command(peer, sim, 'forward')
    await command(peer, sim, 'stop')
    while (replies().length < 2) await once(peer, 'data')
    assert.equal(replies(), ['1', 'stop'])
  }))

test('reconnecting: at once after a controller that had asked hung up; after a backoff, longer each time, when refused or closed unasked', async () => {
  const port = await freePort() // nothing listens there: the first attempts are refused
  const backoffs: number[] = []
  const sim = new SimProcess({
    kind: 'nfv',
    clientId: 1,
    port,
    reconnect: true,
    backoff: (n) => {
      backoffs.push(n)
      return 0
    },
  })
  let server: Server | undefined
  let kept: Socket | undefined
  try {
    const refused = once(sim, 'unreachable')
    const connected = sim.start()
    await refused
    backoffs.push(-1) // where the controller starts (before the retry, whose timer is yet to run)
    server = createServer().listen(port, '127.0.0.1')
    let n = 0
    const fourth = new Promise<Socket>((resolve) =>
      server!.on('connection', (socket: Socket) => {
        n++
        if (n === 1 || n === 3) return socket.destroy() // closed before asking anything
        if (n === 4) return resolve(socket)
        socket.once('data', () => socket.destroy()) // asked (its handshake answered), then closed
        socket.write('_get_client_id')
      }),
    )
    await connected
    kept = await fourth
    assert.equal(backoffs, [0, -1, 1, 0], 'refused; closed unasked; asked (none); closed unasked')
  } finally {
    sim.stop()
    kept?.destroy()
    server?.close()
  }
})

test.run()
