// The wire side of the floor's forwarding servers (bench/command-server.ts and
// bench/stack-command-server.ts): the simulated process's connection, and its replies cut into
// whole frames.
import { once } from 'node:events'
import { createServer, type Socket } from 'node:net'

/** An 18.11 nfv pads every reply to this many bytes. */
export const FRAME = 2048

/** Listens on `port`, says `wire ready` for the simulator to connect, and takes its connection. */
export async function acceptProcess(port: number): Promise<Socket> {
  const wire = createServer().listen(port, '127.0.0.1')
  await once(wire, 'listening')
  process.stdout.write('wire ready\n')
  const [socket] = (await once(wire, 'connection')) as [Socket]
  socket.setNoDelay(true)
  return socket
}

/** Calls `frame` with each whole reply frame, however the stream cut them. */
export function onFrames(socket: Socket, frame: (reply: Buffer) => void): void {
  let parts: Buffer[] = []
  let held = 0
  socket.on('data', (chunk: Buffer) => {
    parts.push(chunk)
    held += chunk.length
    while (held >= FRAME) {
      const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts)
      parts = held > FRAME ? [all.subarray(FRAME)] : []
      held -= FRAME
      frame(all.subarray(0, FRAME))
    }
  })
}
