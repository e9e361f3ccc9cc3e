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
import { sameCredentials, type EtcdCredentials } from '../../fleet/etcd-access.ts'
import { openEtcd, text } from '../../fleet/etcd-client.ts'
import { failureOf } from '../../fleet/etcd-failure.ts'
import { connectEtcd } from './etcd-connect.ts'
import { createFleetState, readFleet, type HostRow } from './fleet-state.ts'
import type { FleetKeys } from '../../fleet/keys.ts'
import { FleetError } from './plan-apply.ts'

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

/**
 * What the page shows: whether the server reads etcd, what etcd refused it when it does not
 * (`refused`: a TLS handshake, authentication, a permission), and every host.
 */
export type FleetSnapshot = { etcd: 'up' | 'down'; refused?: string; hosts: HostRow[] }

/**
 * Serves the page on `host:port` (0: any free port) until `close()`. Rejects, with a FleetError's
 * line, when etcd refuses the server at start; an etcd that does not answer is shown as down and
 * tried again.
 */
export async function startFleetServer(options: {
  endpoints: string[]
  keys: FleetKeys
  host: string
  port: number
  /** `--etcd-ca`... as read (the page needs read access to the prefix only). */
  credentials?: EtcdCredentials
}) {
  const { keys, endpoints } = options
  let credentials = options.credentials
  const first = await connectEtcd(endpoints, credentials)
  if ('failure' in first && first.failure.kind === 'refused')
    throw new FleetError(first.failure.line)
  let authenticating = 'client' in first ? first.authenticating : true
  let client: Etcd3 = 'client' in first ? first.client : await openEtcd(endpoints, credentials)
  const listeners = new Set<(snapshot: FleetSnapshot) => void>()
  let state = createFleetState(keys)
  let etcd: FleetSnapshot['etcd'] = 'down'
  let refused: string | undefined
  let watcher: Watcher | undefined
  let closed = false
  let due = false
  const snapshot = (): FleetSnapshot => ({
    etcd,
    ...(refused ? { refused } : {}),
    hosts: state.rows(),
  })
  // Changes of one turn (a watch response carries several) make one snapshot.
  const changed = () => {
    if (due) return
    due = true
    setImmediate(() => {
      due = false
      for (const listener of listeners) listener(snapshot())
    })
  }

  const shown = (now: FleetSnapshot['etcd'], why?: string) => {
    if (etcd === now && refused === why) return
    etcd = now
    refused = why
    changed()
  }

  // Reads every key, then watches from the revision after that read: nothing falls in between.
  let retry: NodeJS.Timeout | undefined
  let generation = 0
  let refusals = 0
  async function follow() {
    clearTimeout(retry)
    const mine = generation
    try {
      const read = await readFleet(client, keys)
      if (closed || mine !== generation) return
      state = read.state
      refusals = 0
      etcd = 'up'
      refused = undefined
      changed()
      const current = client
        .watch()
        .prefix(keys.hosts)
        .startRevision(String(read.revision + 1))
        .watcher()
      watcher = current
      const live = () => watcher === current
      current.on('put', (kv) => live() && state.set(kv.key.toString(), text(kv)) && changed())
      current.on('delete', (kv) => live() && state.set(kv.key.toString(), undefined) && changed())
      current.on('connected', () => live() && shown('up'))
      current.on('disconnected', () => live() && etcd === 'up' && shown('down'))
      current.on('error', (error) => {
        if (!live()) return
        watcher = undefined
        void current.cancel().catch(() => undefined)
        void recover(error, true)
      })
    } catch (error) {
      if (!closed && mine === generation) void recover(error, false)
    }
  }

  /** A new client, with the credentials and authentication in force; the old one closed. */
  async function renew() {
    generation++
    const old = client
    const oldWatcher = watcher
    watcher = undefined
    client = await openEtcd(endpoints, credentials, { auth: authenticating })
    void oldWatcher?.cancel().catch(() => undefined)
    old.close()
  }

  // What failed says what to do: authenticate again (an expired token, auth enabled or not), or
  // show the refusal or the outage and try again, less and less often while etcd refuses. A
  // cancelled watch (e.g. compacted) is read again on a new client: etcd3 attaches no further
  // watch to a stream once etcd cancelled one as it was created.
  async function recover(error: unknown, watching: boolean) {
    const what = `reading ${keys.hosts}`
    const failure = failureOf(error, { endpoints, credentials, what })
    let wait = 1000
    if (failure.kind === 'stale') wait = 0
    else if (failure.kind === 'auth-off' && authenticating) {
      authenticating = false
      wait = 0
    } else if (failure.kind === 'no-user' && !authenticating) {
      authenticating = true
      wait = 0
    } else if (failure.kind === 'refused') {
      shown('down', failure.line)
      wait = Math.min(30_000, 1000 * 2 ** refusals++)
    } else if (failure.kind === 'unreachable') shown('down')
    if (closed) return
    if (wait === 0 || watching) await renew()
    if (!closed) retry = setTimeout(() => void follow(), wait)
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
    /** Credentials read again (SIGHUP): a new client with them, when they changed. */
    reload(next: EtcdCredentials | undefined) {
      if (closed || sameCredentials(credentials, next)) return
      credentials = next
      authenticating = true
      refusals = 0
      void renew().then(() => (closed ? undefined : follow()))
    },
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
