// The controller's options and their defaults (the CLI's flags set them; tests pass their own).
import type { Logger } from 'pino'
import type { AllowedPeers } from '../auth/allow-peers.ts'
import type { Client } from '../auth/clients.ts'
import type { NfvStatusWords } from '../http/present.ts'
import { DEFAULT_STATUS_MAX_AGE_MS } from '../observe/status-reads.ts'
import type { FleetSettings } from '../fleet/controller-link.ts'
import type { Clock } from '../remember/confirmation.ts'
import type { RestoreMode } from '../remember/restore.ts'
import type { Timer } from '../topology/path-watch.ts'

/** What startController is told. */
export type ControllerOptions = {
  host: string
  primaryPort: number
  secondaryPort: number
  apiPort: number
  commandTimeoutMs: number
  maxReplyBytes: number
  maxUnidentified: number
  /** Commands allowed to wait for one process; more are refused with 503. */
  maxQueue: number
  /** How nfv status is worded: the spec's Running/Idle, or the process's running/idling. */
  nfvStatus: NfvStatusWords
  maxBodyBytes: number
  /** How long an HTTP client may take to send its request. */
  httpRequestTimeoutMs: number
  /** Events kept for clients that reconnect with Last-Event-ID. */
  eventBufferSize: number
  /** An event-stream client this many events behind is dropped. */
  maxPendingEventsPerClient: number
  /**
   * A process's status read this recently (ms) answers every GET of it again, its own and
   * /v1/topology's: dashboards share one read per process per this; 0: a read per request.
   */
  statusMaxAgeMs: number
  /** The status reads' clock (ms, monotonic; default performance.now): a test moves its own. */
  statusClock?: () => number
  /** --auth-file's clients: with them, every request needs a token (see src/http/auth.ts). */
  clients?: Client[]
  /** GETs need no token (with `clients`). */
  allowReadAnonymous?: boolean
  /** The API on a unix socket too; its requests are the local administrator's. */
  apiSocket?: { path: string; gid?: number }
  /** Who may connect to the process ports (default: loopback and the bind address's network). */
  allowPeers?: AllowedPeers
  /** REST connections at once (default: from the open-files limit, see src/controller/fd-budget.ts). */
  maxApiConnections?: number
  /** Where the controller remembers each process's configuration and the journal (none: nothing). */
  stateDir?: string
  /** What to do with a process that comes back drifting from what is remembered (default on). */
  restore?: RestoreMode
  /** Journal entries older than this many days are removed (default 30). */
  journalKeepDays?: number
  /** --etcd: the fleet's etcd, this host's name and key prefix (see src/fleet/controller-link.ts). */
  fleet?: FleetSettings
  /** The time and timer of confirmed applies (confirm_within): node's unless a test gives its own. */
  clock?: Clock
  /** How the rates pushed (`/v1/events?rates=1`) wait for their next read: node's timer unless a test gives its own. */
  ratesTimer?: Timer
  /** Where GET /v1/cpu_layout reads this host's cpus (default /sys/devices/system/cpu). */
  sysfsCpu?: string
  log: Logger
}

/** The defaults of the flags. */
export const DEFAULTS = {
  host: 'localhost',
  primaryPort: 5555,
  secondaryPort: 6666,
  apiPort: 7777,
  commandTimeoutMs: 5000,
  maxReplyBytes: 4 * 1024 * 1024,
  maxUnidentified: 256,
  maxQueue: 64,
  nfvStatus: 'spec',
  maxBodyBytes: 64 * 1024,
  httpRequestTimeoutMs: 10_000,
  eventBufferSize: 1024,
  maxPendingEventsPerClient: 256,
  statusMaxAgeMs: DEFAULT_STATUS_MAX_AGE_MS,
} satisfies Omit<ControllerOptions, 'log'>
