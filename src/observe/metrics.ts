// Prometheus metrics (prom-client) of the controller and its processes, served at GET /metrics.
import { Counter, Gauge, Histogram, Registry as MetricsRegistry } from './prom.ts'
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import type { PrimaryStatus, ProcessKind } from '../protocol/bodies.ts'
import { primaryCommands } from '../protocol/kinds/primary.ts'
import { PRIMARY } from '../protocol/process-id.ts'
import type { Result } from '../protocol/result.ts'
import { authRefusedCounter, authReloadCounter } from './auth-metrics.ts'
import { CommandDurations } from './command-durations.ts'
import { HttpCounts } from './http-counts.ts'

/** Why a guard closed a connection (see src/http/connection-guard.ts, --allow-peers). */
export type DropReason = 'timeout' | 'evicted' | 'refused' | 'peer'

const KINDS: ProcessKind[] = ['primary', 'nfv', 'vf', 'mirror', 'pcap']
const ERAS = ['18.11', '2020', 'unknown'] // unknown: a vf or mirror whose status was not read yet
const API_DROPS: DropReason[] = ['timeout', 'evicted', 'refused']

/** Prometheus metrics of the controller (prom-client), served at GET /metrics. */
export function createMetrics(processes: Registry) {
  const registry = new MetricsRegistry()
  const registers = [registry]
  const httpCounts = new HttpCounts()
  new Counter({
    name: 'spp_http_requests_total',
    help: 'REST requests answered, by route and status',
    labelNames: ['method', 'route', 'status'],
    registers,
    collect() {
      this.reset()
      for (const { labels, count } of httpCounts) this.inc(labels, count)
    },
  })
  const commandSeconds = new Histogram({
    name: 'spp_command_duration_seconds',
    help: 'Time from sending a command to a process to its reply (or its timeout)',
    labelNames: ['kind', 'command'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
    // Hands over the durations held back (command-durations.ts) before each scrape reads them.
    collect: (): void => commandDurations.flush(),
  })
  const commandDurations = new CommandDurations(commandSeconds)
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Counter({ name, help, labelNames, registers })
  const commandFailures = counter('spp_command_failures_total', 'Commands that failed, by error', [
    'kind',
    'command',
    'error',
  ])
  const timeouts = counter(
    'spp_command_timeouts_total',
    'Commands that got no reply within the command timeout',
    ['kind'],
  )
  const disconnects = counter(
    'spp_process_disconnects_total',
    'Identified processes whose connection closed',
    ['kind'],
  )
  const conflicts = counter(
    'spp_process_id_conflicts_total',
    'Connections that claimed the id of a process already served (they wait on standby)',
    ['kind'],
  )
  const dropped = counter(
    'spp_connections_dropped_total',
    'Connections the controller closed to guard itself, by listener and reason',
    ['listener', 'reason'],
  )
  const authRefused = authRefusedCounter(registers)
  const authReload = authReloadCounter(registers)
  // At 0 from the start, as the auth refusals: an alert's increase() then sees the first one.
  for (const kind of KINDS) timeouts.inc({ kind }, 0)
  for (const reason of API_DROPS) dropped.inc({ listener: 'api', reason }, 0)
  new Gauge({
    name: 'spp_processes',
    help: 'Identified processes connected now, by kind and SPP era (18.11 or 2020)',
    labelNames: ['kind', 'era'],
    registers,
    collect() {
      const counts = new Map<string, number>()
      for (const process of processes.processes()) {
        const key = `${process.id.kind} ${process.describe().era}`
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
      for (const kind of KINDS)
        for (const era of ERAS) this.set({ kind, era }, counts.get(`${kind} ${era}`) ?? 0)
    },
  })
  new Gauge({
    name: 'spp_command_queue_depth',
    help: 'Commands waiting for or being answered by each process',
    labelNames: ['process'],
    registers,
    collect() {
      this.reset()
      for (const process of processes.processes()) {
        const { label, queueDepth } = process.describe()
        this.set({ process: label }, queueDepth)
      }
    },
  })

  // The primary's port counters come from the last status the controller read (any client's read
  // refreshes them). A scrape never waits for the primary: a hung one would make it last the whole
  // command timeout, past Prometheus's own, and lose every metric when they matter most. It starts
  // a refresh instead, answered by the next scrape.
  let refreshing = false
  const refresh = (primary: ProcessHandle) => {
    if (refreshing) return
    refreshing = true
    primary
      .ask(primaryCommands.status())
      .catch(() => undefined)
      .finally(() => (refreshing = false))
  }
  const lastRead = (): { status: PrimaryStatus; readAt: number } | undefined => {
    if (!processes.has(PRIMARY)) return undefined
    const primary = processes.find(PRIMARY)
    const { view } = primary.describe()
    refresh(primary)
    return view?.kind === 'primary' && view.status && view.readAt !== undefined
      ? { status: view.status, readAt: view.readAt }
      : undefined
  }
  let scrape: ReturnType<typeof lastRead>
  new Gauge({
    name: 'spp_port_counters_age_seconds',
    help: "Seconds since the primary's port counters were read (absent until a first read)",
    labelNames: ['process'],
    registers,
    collect() {
      scrape = lastRead() // collected first: the port counters below use the same read
      this.reset() // absent until a first read
      if (scrape) this.set({ process: 'primary' }, (Date.now() - scrape.readAt) / 1000)
    },
  })
  const portCounter = (
    name: string,
    help: string,
    read: (status: PrimaryStatus) => [string, number][],
  ) =>
    new Counter({
      name,
      help,
      labelNames: ['port'],
      registers,
      collect() {
        this.reset()
        if (scrape) for (const [port, value] of read(scrape.status)) this.inc({ port }, value)
      },
    })
  const phy = (s: PrimaryStatus) => s.phy_ports.map((p) => [`phy:${p.id}`, p] as const)
  const ring = (s: PrimaryStatus) => s.ring_ports.map((r) => [`ring:${r.id}`, r] as const)
  portCounter('spp_port_rx_packets_total', 'Packets received, as the primary counts them', (s) =>
    [...phy(s), ...ring(s)].map(([port, p]) => [port, p.rx]),
  )
  portCounter('spp_port_tx_packets_total', 'Packets transmitted, as the primary counts them', (s) =>
    [...phy(s), ...ring(s)].map(([port, p]) => [port, p.tx]),
  )
  portCounter(
    'spp_port_tx_dropped_total',
    'Packets dropped on transmit, as the primary counts them',
    (s) => [...phy(s), ...ring(s)].map(([port, p]) => [port, p.tx_drop]),
  )
  portCounter(
    'spp_port_rx_dropped_total',
    'Packets dropped on receive (rings), as the primary counts them',
    (s) => ring(s).map(([port, r]) => [port, r.rx_drop]),
  )

  return {
    registry,
    /** The text of GET /metrics; it never waits for a process. */
    render: (): Promise<string> => registry.metrics(),
    observeHttp(method: string, route: string, status: number) {
      httpCounts.observe(method, route, status)
    },
    observeCommand(kind: ProcessKind, command: string, reply: Result<unknown>, seconds: number) {
      commandDurations.add(kind, command, seconds)
      if (reply.ok) return
      commandFailures.inc({ kind, command, error: reply.code })
      if (reply.code === 'REPLY_TIMEOUT') timeouts.inc({ kind })
    },
    observeDisconnect(kind: ProcessKind) {
      disconnects.inc({ kind })
    },
    observeConflict(kind: ProcessKind) {
      conflicts.inc({ kind })
    },
    /** A connection closed by a guard: `api` (timeout, evicted, refused) or a process port (peer). */
    observeDropped(listener: 'api' | 'primary' | 'secondary', reason: DropReason) {
      dropped.inc({ listener, reason })
    },
    /** A request refused for its token: TOKEN_MISSING, TOKEN_UNKNOWN or SCOPE_MISSING. */
    observeAuthRefused: authRefused,
    /** The auth file read again (SIGHUP): done, or failed (the clients in force kept). */
    observeAuthReload: authReload,
  }
}

export type Metrics = ReturnType<typeof createMetrics>
