// The REST app with a store's journal, served on a loopback port as the controller serves it:
// GET /v1/journal over a real socket, with entries a test writes itself with store.journal().
import { Registry } from '../../src/actors/registry.ts'
import type { Client } from '../../src/auth/clients.ts'
import { createApp } from '../../src/http/app.ts'
import { startServices } from '../../src/controller/services.ts'
import { silentLogger } from '../../src/log/logger.ts'
import { EventHub } from '../../src/observe/event-hub.ts'
import { createMetrics } from '../../src/observe/metrics.ts'
import { openStore, type JournalEntry, type Store } from '../../src/store/store.ts'
import { withTempDir } from '../store/temp-dir.ts'
import { serveOnLoopback } from './served.ts'

/** A served app: its URL and its store (undefined: no journal). */
export type JournalServer = {
  url: string
  store: Store | undefined
  /** The app's event hub: a test publishes what a change would. */
  hub: EventHub
}

/** An entry at `time` (ms) by `by` touching `processes`; the rest made up from them. */
export const entryAt = (time: number, by: string, processes: string[]): JournalEntry => ({
  time,
  by,
  requestId: `req-${time % 100_000}`,
  method: 'PUT',
  path: `/v1/${processes[0]?.replace(':', 's/') ?? 'x'}/patches`,
  body: { src: 'ring:0', dst: 'phy:0' },
  commands: [{ line: 'patch ring:0 phy:0', outcome: 'ok' }],
  status: 204,
  processes,
})

/** Runs `body` with the app served on 127.0.0.1 (with a store unless `journal` is false). */
export function withJournalServer(
  body: (server: JournalServer) => Promise<void>,
  { journal = true, clients }: { journal?: boolean; clients?: Client[] } = {},
) {
  return withTempDir(async (dir) => {
    const store = journal ? openStore(dir, { journalKeepMs: Infinity }) : undefined
    const registry = new Registry()
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
      access: { clients },
      journal: store,
    })
    try {
      const served = await serveOnLoopback(app.fetch, { metrics })
      try {
        await body({ url: served.url, store, hub })
      } finally {
        hub.close() // ends the event streams
        await served.close()
      }
    } finally {
      await store?.close()
    }
  })
}
