// startSims with era 2020 over real loopback sockets: each kind connects and answers a handshake.
import type { Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startSims } from '../../../src/sim/start-sims.ts'
import type { SimProcess } from '../../../src/sim/sim-process.ts'
import { listen } from '../../helpers/stand-in.ts'

/**
 * Sends one command and collects the reply until `done` says it is whole or the peer closes. A
 * reply that stops short (a broken simulator) ends the wait after 2 s of silence, and the
 * assertions on it fail, instead of the test hanging.
 */
function ask(socket: Socket, line: string, done: (data: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve) => {
    let data = Buffer.alloc(0)
    const finish = () => {
      socket.off('data', onData).off('end', finish).off('timeout', finish).setTimeout(0)
      resolve(data)
    }
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk])
      if (done(data)) finish()
    }
    socket.on('data', onData).once('end', finish).once('timeout', finish).setTimeout(2000)
    socket.write(line)
  })
}
const complete = (bytes: number) => (data: Buffer) => data.length >= bytes
const closingBrace = (data: Buffer) => data.at(-1) === 0x7d

test('startSims with era 2020: nfv, vf, mirror and pcap answer _get_client_id, the primary status', async () => {
  const primary = await listen()
  const secondary = await listen()
  let sims: SimProcess[] = []
  try {
    sims = await startSims([{ kind: 'primary' }], {
      primaryPort: primary.port,
      secondaryPort: secondary.port,
      era: '2020',
    })
    const status = await ask(await primary.next(), 'status', complete(32768))
    assert.is(status.length, 32768)
    assert.ok(status.toString('latin1').startsWith('{"master-lcore":0,"lcores":[0,1],'))
    const expected: [string, number, string][] = [
      ['nfv', 1, '{"results":[{"result":"success"}],"client_id":1,"process_type":"nfv"}'],
      ['vf', 2, '{ "results": [ { "result": "success" } ], "client_id": 2, "process_type": "vf" }'],
      [
        'mirror',
        3,
        '{ "results": [ { "result": "success" } ], "client_id": 3, "process_type": "mirror" }',
      ],
      [
        'pcap',
        4,
        '{ "results": [ { "result": "success" } ], "client_id": 4, "process_type": "pcap" }',
      ],
    ]
    for (const [kind, clientId, reply] of expected) {
      const started = await startSims([{ kind: kind as 'nfv', clientId }], {
        primaryPort: primary.port,
        secondaryPort: secondary.port,
        era: '2020',
      })
      sims.push(...started)
      const socket = await secondary.next()
      const padded = kind === 'nfv'
      const data = await ask(socket, '_get_client_id', padded ? complete(32768) : closingBrace)
      assert.is(data.toString('latin1').replace(/\0+$/, ''), reply, kind)
      assert.is(data.length, padded ? 32768 : reply.length, kind)
    }
  } finally {
    for (const sim of sims) sim.stop()
    primary.server.close()
    secondary.server.close()
  }
})

test('a 2020 nfv fed a malformed port id answers its echo, reports the crash and closes', async () => {
  const secondary = await listen()
  let sims: SimProcess[] = []
  try {
    sims = await startSims([{ kind: 'nfv', clientId: 1 }], {
      primaryPort: 1,
      secondaryPort: secondary.port,
      era: '2020',
    })
    const socket = await secondary.next()
    await ask(socket, '_get_client_id', complete(32768))
    const data = await ask(socket, 'add ring:x', () => false) // until the process hangs up
    assert.ok(socket.readableEnded, 'the process closed the connection')
    assert.is(data.length, 32768)
    assert.is(data.toString('latin1').replace(/\0+$/, ''), 'add\0ring\0x')
    assert.equal(sims[0]!.crashes.length, 1)
    assert.match(sims[0]!.crashes[0]!, /malformed port id/)
  } finally {
    for (const sim of sims) sim.stop()
    secondary.server.close()
  }
})

test('a 2020 primary launches the secondary a launch names; it connects to its -s address', async () => {
  const primary = await listen()
  const secondary = await listen()
  let sims: SimProcess[] = []
  try {
    sims = await startSims([{ kind: 'primary' }], {
      primaryPort: primary.port,
      secondaryPort: 1,
      era: '2020',
    })
    const launch = `launch 5 spp_nfv -l 1,2 --proc-type secondary -- -n 5 -s 127.0.0.1:${secondary.port}`
    const reply = await ask(await primary.next(), launch, complete(32768))
    assert.is(
      reply.toString('latin1').replace(/\0+$/, ''),
      '{"result":"succeeded","command":"launch"}',
    )
    assert.is(sims[0]!.launched.length, 1) // started before the reply was sent
    const data = await ask(await secondary.next(), '_get_client_id', complete(32768))
    assert.ok(
      data.toString('latin1').startsWith('{"results":[{"result":"success"}],"client_id":5,'),
    )
  } finally {
    for (const sim of sims) sim.stop()
    primary.server.close()
    secondary.server.close()
  }
})

test.run()
