// Whether the fleet link works, from the outcome of every call and watch: one line per outage or
// refusal (what etcd refused, and who), one info line when it works again.
import type { Logger } from 'pino'

/** Why the link does not work: etcd does not answer, or it refuses (TLS, authentication, a permission). */
export type Down =
  { kind: 'unreachable'; reason: string } | { kind: 'refused'; reason: string; line: string }

/** Told by every call and watch; tells its listener (the `spp_etcd_up` gauge) on each change. */
export type Reachability = {
  readonly up: boolean
  /** Known not to work (a call failed since the last success): only the probe talks to etcd. */
  readonly down: boolean
  /** Down because etcd refused a write: reads prove nothing, the refused writes are the probe. */
  readonly writeRefused: boolean
  /** Down because etcd refused (not for want of an answer). */
  readonly refused: boolean
  /** A call or watch succeeded; a read (`write` false) does not end a refused write. */
  ok(write?: boolean): void
  /** A call failed, or the watch stream broke, for want of etcd or by its refusal. */
  failed(why: Down, write?: boolean): void
}

/** Starts as not up, without a warning: the first call tells which it is. */
export function createReachability(
  log: Logger,
  endpoints: string[],
  onChange: (up: boolean) => void,
): Reachability {
  let state: 'unknown' | 'up' | 'down' = 'unknown'
  let down: (Down & { write: boolean }) | undefined
  let since = 0
  const tell = (up: boolean) => {
    try {
      onChange(up)
    } catch (error) {
      log.error({ err: error }, 'etcd reachability listener failed')
    }
  }
  return {
    get up() {
      return state === 'up'
    },
    get down() {
      return state === 'down'
    },
    get writeRefused() {
      return state === 'down' && down?.kind === 'refused' && down.write
    },
    get refused() {
      return state === 'down' && down?.kind === 'refused'
    },
    ok(write = false) {
      if (state === 'up') return
      if (state === 'down' && down?.kind === 'refused' && down.write && !write) return
      if (state === 'down')
        log.info({ endpoints, downMs: Math.round(performance.now() - since) }, 'etcd is back')
      state = 'up'
      down = undefined
      tell(true)
    },
    failed(why, write = false) {
      // The same refusal of another key (desired, then observed) is no news: etcd's words tell.
      const same =
        state === 'down' &&
        down?.kind === why.kind &&
        (why.kind === 'unreachable' || down.reason === why.reason)
      if (same) {
        return void log.debug(
          { reason: why.reason },
          why.kind === 'refused' ? 'etcd still refuses' : 'etcd still unreachable',
        )
      }
      const wasDown = state === 'down'
      if (!wasDown) since = performance.now()
      state = 'down'
      down = { ...why, write }
      if (why.kind === 'unreachable')
        log.warn(
          { endpoints, reason: why.reason },
          'etcd unreachable: working from the last known desired state; changes are kept until it is back',
        )
      // One line an operator can act on: who, what etcd refused, and what to change.
      else log.error({ endpoints, reason: why.reason }, why.line)
      if (!wasDown) tell(false)
    },
  }
}
