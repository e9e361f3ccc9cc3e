// A simulated process that exits stays gone, as SPP's do, unless told to respawn; the controller
// hanging up is another matter: then it connects again, as SPP's do.
import { once } from 'node:events'
import type { Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { SimProcess } from '../../src/sim/sim-process.ts'
import { listen } from '../helpers/stand-in.ts'

/** Sends a line, waits until the process has answered it. */
const say = async (sim: SimProcess, socket: Socket, line: string) => {
  const answered = once(sim, 'answered')
  socket.write(line)
  await answered
}

test('after exit the process closes and stays gone; a hang-up by the controller is reconnected', async () => {
  const { server, port, next } = await listen()
  const sim = new SimProcess({ kind: 'nfv', clientId: 1, port, reconnect: true })
  try {
    await sim.start()
    const first = (await next()).resume() // what comes is dropped, so that the closing end is seen
    await say(sim, first, '_get_client_id')
    first.destroy() // the controller hangs up: it comes back
    const second = (await next()).resume() // what comes is dropped, so that the closing end is seen
    await say(sim, second, '_get_client_id')
    const gone = once(sim, 'exited')
    await say(sim, second, 'exit')
    await gone
    assert.ok(sim.exited)
  } finally {
    sim.stop()
    server.close()
  }
})

test('with respawn, an exited process comes back afresh: nothing it had is kept', async () => {
  const { server, port, next } = await listen()
  const sim = new SimProcess({ kind: 'nfv', clientId: 1, port, respawn: true })
  try {
    await sim.start()
    const first = (await next()).resume() // what comes is dropped, so that the closing end is seen
    await say(sim, first, 'add ring:0')
    await say(sim, first, 'exit')
    const second = (await next()).resume() // what comes is dropped, so that the closing end is seen
    const answered = once(sim, 'answered') as Promise<[string, Buffer]>
    second.write('status')
    const [, reply] = await answered
    assert.not.ok(sim.exited)
    assert.match(reply.toString('latin1'), /"ports":\["phy:0","phy:1"\]/)
  } finally {
    sim.stop()
    server.close()
  }
})

test.run()
