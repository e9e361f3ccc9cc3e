// The two process ports: every connection becomes one actor, served once identified.
import { once } from 'node:events'
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import type { Logger } from 'pino'
import { burstLog } from '../log/burst-log.ts'
import { createActor } from 'xstate'
import { idText, labelOf } from '../protocol/process-id.ts'
import { commandLog } from './command-log.ts'
import { jobsOf } from './command-queue.ts'
import { refuseAll } from './job.ts'
import { processConnection, type ProcessConnection } from './process-connection.ts'
import type { Registry } from './registry.ts'

export type ProcessListenerOptions = {
  host: string
  primaryPort: number
  secondaryPort: number
  /** How long a process may take to answer one command, and the handshake. */
  commandTimeoutMs: number
  /** A reply larger than this drops the connection (the process reconnects). */
  maxReplyBytes: number
  /** At most this many connections in their handshake: a new one beyond it evicts the oldest. */
  maxUnidentified: number
  /** Commands allowed to wait for one process; more are refused with 503. */
  maxQueue: number
  registry: Registry
  log: Logger
  /** Whether a new connection may go on to its handshake (--allow-peers); refused ones are closed. */
  admit?: (socket: Socket, port: 'primary' | 'secondary') => boolean
}

/** The two process ports: every connection becomes one actor, registered once identified. */
export async function listenForProcesses(options: ProcessListenerOptions) {
  const { registry, log } = options
  const live = new Set<ProcessConnection>()
  // In arrival order. A real process answers its handshake in milliseconds (nfv) or about a second
  // (vf, mirror), so when silent peers fill the cap the oldest is the one to let go.
  const handshaking = new Set<ProcessConnection>()

  registry.on('conflict', (served, claimant) => {
    const process = idText(served.id)
    const peers = { served: served.describe().peer, claimant: claimant.describe().peer }
    log.warn({ process, ...peers }, `${process} claimed by a second live connection: it waits`)
  })

  registry.changes(commandLog(log))
  registry.on('fault', (process, error) =>
    log.error({ err: error, process: idText(process.id) }, 'internal error: connection dropped'),
  )

  const accept = (role: 'primary' | 'secondary') => (socket: Socket) => {
    if (options.admit && !options.admit(socket, role)) return void socket.destroy()
    const peer = `${socket.remoteAddress}:${socket.remotePort}`
    const [oldest] = handshaking
    if (oldest && handshaking.size >= options.maxUnidentified) {
      handshaking.delete(oldest)
      oldest.send({
        type: 'close',
        reason: `evicted: more than ${options.maxUnidentified} connections in their handshake`,
      })
    }
    socket.setNoDelay(true)
    socket.setKeepAlive(true, 10_000) // notices a process whose host vanished without closing
    const connection = createActor(processConnection, {
      input: {
        socket,
        role,
        replyTimeoutMs: options.commandTimeoutMs,
        maxReplyBytes: options.maxReplyBytes,
        maxQueue: options.maxQueue,
        log,
      },
    })
    const forget = () => {
      handshaking.delete(connection)
      live.delete(connection)
      registry.unregister(connection)
    }
    // A throw in a listener is reported by xstate on a timer, which would end the controller.
    const guarded =
      <E>(handler: (event: E) => void) =>
      (event: E) => {
        try {
          handler(event)
        } catch (error) {
          log.error({ err: error, peer }, 'internal error while handling a process event')
          connection.send({ type: 'close', reason: 'internal error in the controller' })
        }
      }
    connection.on(
      'identified',
      guarded(({ id, era }) => {
        handshaking.delete(connection)
        const shown = era ?? 'unknown until its first status'
        log.info({ process: idText(id), peer, era: shown }, 'process identified')
        registry.claim(connection, id)
      }),
    )
    connection.on(
      'unsent',
      guarded(({ id, jobs }) => registry.hold(id, jobs, options.commandTimeoutMs)),
    )
    connection.subscribe({
      complete: () => {
        forget()
        const { id, closeReason } = connection.getSnapshot().context
        log.info({ process: labelOf(id), peer, reason: closeReason }, 'process disconnected')
      },
      // An exception inside the actor: this connection ends, every other goes on.
      error: (error) => {
        forget()
        socket.destroy()
        const { id, queue, inFlight } = connection.getSnapshot().context
        const process = labelOf(id)
        log.error({ err: error, process, peer }, 'internal error: connection dropped')
        const message = `connection to ${process} dropped: internal error in the controller`
        const jobs = jobsOf(queue)
        refuseAll(inFlight ? [inFlight.job, ...jobs] : jobs, message, 'INTERNAL')
      },
    })
    live.add(connection)
    handshaking.add(connection)
    log.info({ peer, port: role }, 'connection accepted')
    connection.start()
  }

  const listen = async (server: Server, port: number) => {
    server.listen({ host: options.host, port })
    await once(server, 'listening')
    return (server.address() as AddressInfo).port
  }
  const primaryServer = createServer(accept('primary'))
  const secondaryServer = createServer(accept('secondary'))
  let primaryPort: number, secondaryPort: number
  try {
    primaryPort = await listen(primaryServer, options.primaryPort)
    secondaryPort = await listen(secondaryServer, options.secondaryPort)
  } catch (error) {
    primaryServer.close()
    secondaryServer.close()
    throw error
  }
  // After start, an accept error (EMFILE, ECONNABORTED) costs that one connection, not the ports;
  // logged once per burst, since it then happens to every connection that arrives.
  for (const [server, port] of [
    [primaryServer, 'primary'],
    [secondaryServer, 'secondary'],
  ] as const) {
    const logError = burstLog(log, 'error', 'process listener error')
    server.on('error', (error) => logError({ err: error, port }))
  }

  return {
    primaryPort,
    secondaryPort,
    /** The two TCP servers (primary, secondary). */
    servers: [primaryServer, secondaryServer] as const,
    /** Stops accepting; with `disconnect`, also closes every process connection. */
    close(disconnect: boolean) {
      primaryServer.close()
      secondaryServer.close()
      if (!disconnect) return
      registry.close()
      for (const connection of live)
        connection.send({ type: 'close', reason: 'controller shutting down' })
    },
  }
}
