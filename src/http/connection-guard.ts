// The REST listeners' connection budget: no client can hold descriptors the processes need.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from 'pino'
import { burstLog } from '../log/burst-log.ts'
import type { Metrics } from '../observe/metrics.ts'

export type ConnectionGuardOptions = {
  /** REST connections open at once (TCP and unix socket together, event streams included). */
  maxConnections: number
  /** A connection must have sent a whole request this long after it was accepted. */
  firstRequestMs: number
  log: Logger
  metrics: Metrics
  now?: () => number
  /**
   * Calls `callback` once after `ms`, never keeping node running; returns how to cancel it (node:
   * an unref'd setTimeout). A test passes its own to fire the sweep when it says.
   */
  after?: (ms: number, callback: () => void) => () => void
}

const nodeAfter = (ms: number, callback: () => void) => {
  const timer = setTimeout(callback, ms).unref()
  return () => clearTimeout(timer)
}

/** Closes a connection whose first request did not come in time (the server answers 408). */
export type Expire = (socket: Socket) => void

type Waiting = { deadline: number; expire: Expire; request?: IncomingMessage }
/** When a keep-alive connection last went idle between requests (a count), or 0 while it is busy. */
type Connection = { idleSince: number }

/**
 * Watches the REST servers' connections. A connection must send a whole first request within
 * `firstRequestMs` of being accepted (node's own headersTimeout restarts at the first byte, so a
 * byte every few seconds would hold it for ever). Past `maxConnections`, a new connection evicts
 * the oldest one that has not sent a whole request yet (else the oldest idle keep-alive one):
 * silent connections are the cheapest to lose, and refusing the newest instead would let anyone
 * who got there first keep every real client out until the timeout. Only when every connection is
 * busy (a request in flight, an event stream) is the new one closed at once.
 */
export function connectionGuard(options: ConnectionGuardOptions) {
  const { maxConnections, firstRequestMs, metrics } = options
  const { now = () => performance.now(), after = nodeAfter } = options
  // Idleness is a field of each connection's record, not membership of a set: a set that a socket
  // leaves and joins at every request rehashes its table each time, and the table of a long-lived
  // set is allocated in V8's old generation, so each request left about 120 bytes of old garbage
  // (found with a heap profile of what major collections reclaim).
  const live = new Map<Socket, Connection>()
  const waiting = new Map<Socket, Waiting>() // in the order accepted, so deadlines ascend
  let turns = 0 // requests finished: the order in which connections went idle
  const logEvicted = burstLog(options.log, 'warn', 'REST connection evicted: over the limit')
  const logRefused = burstLog(options.log, 'warn', 'REST connection refused: over the limit')

  const forget = (socket: Socket) => {
    live.delete(socket)
    waiting.delete(socket)
  }
  /** The oldest connection without a whole request, else the one idle the longest. */
  const victim = (): Socket | undefined => {
    for (const [socket, w] of waiting) {
      if (!w.request?.complete) return socket
      waiting.delete(socket) // its request is in: it is being served
    }
    let longest: Socket | undefined
    let since = Infinity
    for (const [socket, { idleSince }] of live)
      if (idleSince > 0 && idleSince < since) [longest, since] = [socket, idleSince]
    return longest
  }
  // One timer, at the earliest deadline of a connection still without its first request, armed
  // only while there is one: a controller whose clients keep their connections (or have none)
  // is never woken for nothing. A deadline whose connection has since sent its request fires
  // once, finds nothing late and moves the timer on to the next.
  let cancelSweep: (() => void) | undefined
  let stopped = false
  const armSweep = () => {
    if (stopped) return
    for (const [socket, w] of waiting) {
      if (w.request?.complete) {
        waiting.delete(socket)
        continue
      }
      cancelSweep = after(Math.max(0, w.deadline - now()), () => {
        cancelSweep = undefined
        sweep()
      })
      return
    }
  }
  const admit = (socket: Socket, expire: Expire) => {
    live.set(socket, { idleSince: 0 })
    socket.once('close', () => forget(socket))
    if (live.size > maxConnections) {
      const oldest = victim()
      const fields = { max: maxConnections, peer: socket.remoteAddress ?? 'unix socket' }
      if (oldest) {
        forget(oldest)
        oldest.destroy()
        metrics.observeDropped('api', 'evicted')
        logEvicted(fields)
      } else {
        forget(socket)
        socket.destroy()
        metrics.observeDropped('api', 'refused')
        logRefused(fields)
        return
      }
    }
    waiting.set(socket, { deadline: now() + firstRequestMs, expire })
    if (!cancelSweep) armSweep()
  }
  const sweep = () => {
    const time = now()
    for (const [socket, w] of waiting) {
      if (w.request?.complete) waiting.delete(socket)
      else if (w.deadline > time) break
      else {
        waiting.delete(socket)
        w.expire(socket)
      }
    }
    if (!cancelSweep) armSweep()
  }

  return {
    /**
     * Puts a server's connections under the guard; `expire` answers one that timed out. The
     * server tells it each request (`request`) from its own one 'request' listener.
     */
    watch(server: Server, expire: Expire) {
      server.on('connection', (socket: Socket) => admit(socket, expire))
    },
    /** A request has come on a watched connection: it is busy until its answer is finished. */
    request(req: IncomingMessage, res: ServerResponse) {
      const { socket } = req
      const connection = live.get(socket)
      if (connection) connection.idleSince = 0
      const w = waiting.get(socket)
      if (w) w.request = req
      res.once('finish', () => {
        if (w) waiting.delete(socket)
        if (connection && !socket.destroyed) connection.idleSince = ++turns
      })
    },
    /** Closes the connections whose first request is late (also run at the earliest deadline). */
    sweep,
    /** Connections open now. */
    get open() {
      return live.size
    },
    /** Stops the sweeps (the controller's close). */
    stop() {
      cancelSweep?.()
      cancelSweep = undefined
      stopped = true
    },
  }
}

export type ConnectionGuard = ReturnType<typeof connectionGuard>
