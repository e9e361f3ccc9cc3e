// A port for a program that cannot be told to pick its own (etcd, Prometheus, a fixed-port test).
import { once } from 'node:events'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

/** A port the kernel just handed out and took back: free now, bound by the caller a moment later. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return port
}
