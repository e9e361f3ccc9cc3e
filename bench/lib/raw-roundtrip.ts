// The floor of a mutation: the simulated nfv's command round trip with no controller in between.
// A client speaking the wire protocol itself accepts the simulator's connection, sends
// `_get_client_id`, then `patch phy:0 phy:1` one at a time, each answered by one 2048-byte frame.
import { once } from 'node:events'
import { createServer, type Socket } from 'node:net'
import { startChild, stopChild } from './children.ts'
import { figuresOf, type Figures } from './load.ts'

const FRAME = 2048

/** Round trips per second (and their latency) of one simulated nfv, for `seconds` s. */
export async function rawRoundTrips(seconds: number): Promise<Figures> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  const accepted = once(server, 'connection') as Promise<[Socket]>
  // The same simulator the controller is measured with: compiled, in its own process.
  const sim = await startChild(
    'bin/spp-sim.js',
    ['-p', String(port), '-s', String(port), '--nfv', '1', '--poll-ms', '0'],
    /connected/,
    'stderr',
  )
  const [socket] = await accepted
  socket.setNoDelay(true)
  let buffered = 0
  let frameDone: (() => void) | undefined
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.length
    if (buffered >= FRAME) {
      buffered -= FRAME
      frameDone?.()
    }
  })
  const ask = (line: string) =>
    new Promise<void>((resolve) => {
      frameDone = resolve
      socket.write(line)
    })
  try {
    await ask('_get_client_id')
    await ask('patch phy:0 phy:1') // warm-up
    const samples: number[] = []
    const end = performance.now() + seconds * 1000
    while (performance.now() < end) {
      const start = performance.now()
      await ask('patch phy:0 phy:1')
      samples.push(performance.now() - start)
    }
    return figuresOf(samples, seconds)
  } finally {
    socket.destroy()
    server.close()
    await stopChild(sim)
  }
}
