// `spp-ctl fleet serve`: the fleet page and its live feed, from one etcd watch of every host's keys.
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import type { Etcd3, Watcher } from 'etcd3'
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { CONTENT_SECURITY_POLICY } from '../../http/ui-routes.ts'
import { openEtcd, text } from '../../fleet/etcd-client.ts'
import { createFleetState, readFleet, type HostRow } from './fleet-state.ts'
import type { FleetKeys } from '../../fleet/keys.ts'

// Next to the bundle when compiled (dist/ui/fleet), else src/ui/fleet.
const PAGE = [new URL('./ui/fleet/', import.meta.url), new URL('../../ui/fleet/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(join(dir, 'index.html')))!
const FILES: Record<string, [string, string]> = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/fleet/page.js': ['page.js', 'text/javascript; charset=utf-8'],
  '/fleet/common.css': ['../common.css', 'text/css; charset=utf-8'], // the topology page's too
  '/fleet/style.css': ['style.css', 'text/css; charset=utf-8'],
}

/** What the page shows: whether the server reaches etcd, and every host. */
export type FleetSnapshot = { etcd: 'up' | 'down'; hosts: HostRow[] }

/** Serves the page on `host:port` (0: any free port) until `close()`. */
export async function startFleetServer(options: {
  endpoints: string[]
  keys: FleetKeys
  host: string
  port: number
}) {
  const { keys } = options
  const client: Etcd3 = await openEtcd(options.endpoints)
  const listeners = new Set<(snapshot: FleetSnapshot) => void>()
  let state = createFleetState(keys)
  let etcd: FleetSnapshot['etcd'] = 'down'
  let watcher: Watcher | undefined
  let closed = false
  let due = false
  const snapshot = (): FleetSnapshot => ({ etcd, hosts: state.rows() })
  // Changes of one turn (a watch response carries several) make one snapshot.
  const changed = () => {
    if (due) return
    due = true
    setImmediate(() => {
      due = false
      for (const listener of listeners) listener(snapshot())
    })
  }

  // Reads every key, then watches from the revision after that read: nothing falls in between.
  let retry: NodeJS.Timeout | undefined
  async function follow() {
    try {
      const read = await readFleet(client, keys)
      if (closed) return
      state = read.state
      etcd = 'up'
      changed()
      watcher = client
        .watch()
        .prefix(keys.hosts)
        .startRevision(String(read.revision + 1))
        .watcher()
      watcher.on('put', (kv) => state.set(kv.key.toString(), text(kv)) && changed())
      watcher.on('delete', (kv) => state.set(kv.key.toString(), undefined) && changed())
      watcher.on('connected', () => etcd !== 'up' && ((etcd = 'up'), changed()))
      watcher.on('disconnected', () => etcd !== 'down' && ((etcd = 'down'), changed()))
      watcher.on('error', () => {
        void watcher?.cancel()
        retry = setTimeout(() => void follow(), 1000) // e.g. compacted: read everything again
      })
    } catch {
      if (!closed) retry = setTimeout(() => void follow(), 1000)
    }
  }
  void follow()

  const app = new Hono()
  for (const [path, [file, type]] of Object.entries(FILES))
    app.get(path, async (c) =>
      c.body(new Uint8Array(await readFile(join(PAGE, file))), 200, {
        'Content-Type': type,
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-cache',
      }),
    )
  app.get('/v1/fleet', (c) => c.json(snapshot()))
  app.get('/v1/fleet/events', (c) =>
    streamSSE(c, async (stream) => {
      let latest: FleetSnapshot | undefined = snapshot()
      let wake: (() => void) | undefined
      const listener = (next: FleetSnapshot) => ((latest = next), wake?.())
      listeners.add(listener)
      stream.onAbort(() => wake?.())
      try {
        while (!stream.aborted && !closed) {
          // Only the newest snapshot matters: a slow page skips the ones it missed.
          if (latest === undefined) await new Promise<void>((resolve) => (wake = resolve))
          if (latest === undefined) continue
          const data = JSON.stringify(latest)
          latest = undefined
          await stream.writeSSE({ event: 'fleet', data })
        }
      } finally {
        listeners.delete(listener)
      }
    }),
  )

  const server = serve({ fetch: app.fetch, hostname: options.host, port: options.port }) as Server
  await once(server, 'listening')
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      closed = true
      clearTimeout(retry)
      for (const listener of listeners) listener(snapshot()) // wakes each stream to end it
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await watcher?.cancel().catch(() => undefined)
      client.close()
    },
  }
}
