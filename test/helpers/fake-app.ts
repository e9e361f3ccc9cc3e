// The REST app over scripted process connections, served as the controller serves it on a loopback
// port: a route's test sends real requests through node's server; the processes are scripted.
import { Registry } from '../../src/actors/registry.ts'
import { createApp } from '../../src/http/app.ts'
import { startServices } from '../../src/controller/services.ts'
import { silentLogger } from '../../src/log/logger.ts'
import { EventHub } from '../../src/observe/event-hub.ts'
import { createMetrics } from '../../src/observe/metrics.ts'
import type { ProcessKind } from '../../src/protocol/bodies.ts'
import { fakeConnection, flush, type Scripted } from './fake-link.ts'
import { serveOnLoopback } from './served.ts'

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

/**
 * An app whose processes are scripted connections, once each has answered its handshake; not
 * served (withFakeApp serves it).
 */
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
  const hub = new EventHub()
  const metrics = createMetrics(registry)
  const app = createApp({
    registry,
    log: silentLogger(),
    maxBodyBytes: 64 * 1024,
    hub,
    metrics,
    services: startServices({ registry, log: silentLogger(), hub, metrics }),
    events: { maxPendingPerClient: 8, heartbeatMs: 60_000 },
  })
  return {
    app,
    /** The processes, as the app finds them. */
    registry,
    hub,
    metrics,
    /** What each process was sent after its handshake. */
    sent: (i: number) => connections[i]!.written.slice(1),
  }
}

/** An answer as a test reads it. */
export type Answer = { status: number; text: string; headers: Headers }

/** A served fake app: the app, what its processes were sent, and requests over a real socket. */
export type ServedFakeApp = Awaited<ReturnType<typeof fakeApp>> & {
  /** Sends one request to the server (a body object as JSON), `headers` as given. */
  request: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<Answer>
}

/** Runs `body` with the fake app served on 127.0.0.1; the server is always closed afterwards. */
export async function withFakeApp(
  processes: FakeProcess[],
  body: (fake: ServedFakeApp) => Promise<void>,
) {
  const fake = await fakeApp(processes)
  const served = await serveOnLoopback(fake.app.fetch, { metrics: fake.metrics })
  try {
    await body({
      ...fake,
      request: async (method, path, json, headers) => {
        const init = {
          method,
          headers,
          body: json === undefined ? undefined : JSON.stringify(json),
        }
        const response = await served.fetch(path, init)
        return { status: response.status, text: await response.text(), headers: response.headers }
      },
    })
  } finally {
    fake.hub.close() // ends the event streams
    await served.close()
  }
}
