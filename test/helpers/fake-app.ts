// The REST app over scripted process connections: routes tested through app.request, no socket.
import { Registry } from '../../src/actors/registry.ts'
import { createApp } from '../../src/http/app.ts'
import { silentLogger } from '../../src/logger.ts'
import { EventHub } from '../../src/observe/event-hub.ts'
import { createMetrics } from '../../src/observe/metrics.ts'
import type { ProcessKind } from '../../src/protocol/bodies.ts'
import { fakeConnection, flush, type Scripted } from './fake-link.ts'

/** A scripted process: its handshake reply, and its answer to each command line. */
export type FakeProcess = {
  kind: ProcessKind
  clientId?: number
  handshake: Buffer | string
  answer: (line: string) => Buffer | string | Scripted
  /** The padded reply length its link measured (a 2020 primary or nfv), if any. */
  frameBytes?: number
}

const bytes = (reply: Buffer | string) => (typeof reply === 'string' ? Buffer.from(reply) : reply)

/** An app whose processes are scripted connections, once each has answered its handshake. */
export async function fakeApp(processes: FakeProcess[]) {
  const registry = new Registry()
  const connections = processes.map((p) => {
    const role = p.kind === 'primary' ? 'primary' : 'secondary'
    let handshaken = false
    const c = fakeConnection(role, 1000, 64, (line) => {
      if (!handshaken) {
        handshaken = true
        return { reply: bytes(p.handshake), ...(p.frameBytes ? { frameBytes: p.frameBytes } : {}) }
      }
      const answer = p.answer(line)
      return typeof answer === 'string' ? Buffer.from(answer) : answer
    })
    // As the process listener does: served once identified, forgotten once closed.
    c.actor.on('identified', ({ id }) => registry.claim(c.actor, id))
    c.actor.subscribe({ complete: () => registry.unregister(c.actor) })
    return c
  })
  await flush()
  const app = createApp({
    registry,
    log: silentLogger(),
    maxBodyBytes: 64 * 1024,
    hub: new EventHub(),
    metrics: createMetrics(registry),
    events: { maxPendingPerClient: 8, heartbeatMs: 60_000 },
  })
  return {
    app,
    /** Sends one request through the app (a body object as JSON). */
    request: async (method: string, path: string, body?: unknown) => {
      const init = body === undefined ? { method } : { method, body: JSON.stringify(body) }
      const response = await app.request(path, init)
      return { status: response.status, text: await response.text(), headers: response.headers }
    },
    /** What each process was sent after its handshake. */
    sent: (i: number) => connections[i]!.written.slice(1),
  }
}
