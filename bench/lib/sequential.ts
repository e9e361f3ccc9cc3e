// Requests one after another over one keep-alive connection, sent by the bench process itself: a
// count of requests, not a time, so that two runs of a server answer exactly as many (wrk's
// rate depends on the time, and under valgrind the time is many times longer).
import { Agent, request } from 'node:http'
import type { Load } from './load.ts'

/** One connection to a server, kept open between requests. */
export function oneConnection(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 })
}

/** Sends `target` `count` times in turn over `agent`; rejects on an error or an answer not 2xx. */
export async function sendInTurn(url: string, target: Load, count: number, agent: Agent) {
  const { hostname, port } = new URL(url)
  const body = target.body === undefined ? undefined : Buffer.from(target.body)
  const headers = body
    ? { 'content-type': 'application/json', 'content-length': String(body.length) }
    : {}
  for (let i = 0; i < count; i++)
    await new Promise<void>((resolve, reject) => {
      const req = request(
        { hostname, port, path: target.path, method: target.method, agent, headers },
        (res) => {
          res.resume()
          res.on('end', () => {
            const status = res.statusCode ?? 0
            if (status >= 200 && status < 300) resolve()
            else reject(new Error(`${target.method} ${target.path} answered ${status}`))
          })
        },
      )
      req.on('error', reject)
      req.end(body)
    })
}
