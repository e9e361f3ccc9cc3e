import { once } from 'node:events'
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import type { Logger } from 'pino'
import { createActor } from 'xstate'
import { processConnection, processLabel, type ProcessConnection } from './process-connection.ts'
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
  registry: Registry
  log: Logger
}

/** The two process ports: every connection becomes one actor, registered once identified. */
export async function listenForProcesses(options: ProcessListenerOptions) {
  const { registry, log } = options
  const live = new Set<ProcessConnection>()
  // In arrival order. A real process answers its handshake in milliseconds (nfv) or about a second
  // (vf, mirror), so when silent peers fill the cap the oldest is the one to let go.
  const handshaking = new Set<ProcessConnection>()

  const accept = (role: 'primary' | 'secondary') => (socket: Socket) => {
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
        log,
      },
    })
    connection.on('identified', ({ kind, clientId }) => {
      handshaking.delete(connection)
      const process = processLabel({ kind, clientId })
      log.info({ process, peer }, 'process identified')
      registry.register({ kind, clientId, connection })
    })
    connection.subscribe({
      complete: () => {
        handshaking.delete(connection)
        live.delete(connection)
        registry.unregister(connection)
        const { kind, clientId, closeReason } = connection.getSnapshot().context
        log.info(
          { process: processLabel({ kind, clientId }), peer, reason: closeReason },
          'process disconnected',
        )
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

  return {
    primaryPort,
    secondaryPort,
    /** Stops accepting; with `disconnect`, also closes every process connection. */
    close(disconnect: boolean) {
      primaryServer.close()
      secondaryServer.close()
      if (disconnect)
        for (const connection of live)
          connection.send({ type: 'close', reason: 'controller shutting down' })
    },
  }
}
