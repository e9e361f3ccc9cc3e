// A plain TCP server standing in for the controller, for tests of the simulator's side of the wire.
import { once } from 'node:events'
import { createServer, type Server, type Socket } from 'node:net'

/** The stand-in: its port, and the connections it accepted, handed over in order by `next()`. */
export async function listen(): Promise<{
  server: Server
  port: number
  next: () => Promise<Socket>
}> {
  const queue: Socket[] = []
  const waiting: ((socket: Socket) => void)[] = []
  const server = createServer((socket) => {
    const take = waiting.shift()
    if (take) take(socket)
    else queue.push(socket)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  const next = () =>
    new Promise<Socket>((resolve) => {
      const socket = queue.shift()
      if (socket) resolve(socket)
      else waiting.push(resolve)
    })
  return { server, port, next }
}
