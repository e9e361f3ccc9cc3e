// Whether etcd answers, from the outcome of every call and watch: one warn per outage, one info back.
import type { Logger } from 'pino'

/** Told by every call and watch; tells its listener (the `spp_etcd_up` gauge) on each change. */
export type Reachability = {
  readonly up: boolean
  /** Known to be down (a call failed since the last success): writes wait for its return. */
  readonly down: boolean
  /** A call or watch succeeded. */
  ok(): void
  /** A call failed, or the watch stream broke. */
  failed(error: unknown): void
}

/** Starts as not up, without a warning: the first call tells which it is. */
export function createReachability(
  log: Logger,
  endpoints: string[],
  onChange: (up: boolean) => void,
): Reachability {
  let state: 'unknown' | 'up' | 'down' = 'unknown'
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
    ok() {
      if (state === 'up') return
      if (state === 'down')
        log.info({ endpoints, downMs: Math.round(performance.now() - since) }, 'etcd is back')
      state = 'up'
      tell(true)
    },
    failed(error) {
      const reason = error instanceof Error ? error.message : String(error)
      if (state === 'down') return void log.debug({ reason }, 'etcd still unreachable')
      state = 'down'
      since = performance.now()
      log.warn(
        { endpoints, reason },
        'etcd unreachable: working from the last known desired state; changes are kept until it is back',
      )
      tell(false)
    },
  }
}
