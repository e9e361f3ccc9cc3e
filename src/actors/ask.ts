import { ControllerError } from '../errors.ts'
import { isSafeLine } from '../protocol/line.ts'
import type { Command } from '../protocol/types.ts'
import type { ProcessConnection } from './process-connection.ts'

let lastId = 0

/**
 * Queues one command; settles with its decoded reply, or fails with the reason it got none.
 * `requestId` names the HTTP request in the command's log line.
 */
export function ask<T>(connection: ProcessConnection, command: Command<T>, requestId?: string): Promise<T> {
  if (!isSafeLine(command.line)) return Promise.reject(new ControllerError('INVALID_REQUEST', 'refusing to send a malformed command'))
  if (connection.getSnapshot().status !== 'active') {
    return Promise.reject(new ControllerError('CONNECTION_CLOSED', 'the process has disconnected'))
  }
  const id = ++lastId
  return new Promise<T>((resolve, reject) => {
    const settled = connection.on('settled', ({ id: answered, reply }) => {
      if (answered !== id) return
      settled.unsubscribe()
      if (reply.ok) resolve(reply.value as T)
      else reject(new ControllerError(reply.code, reply.message))
    })
    connection.send({ type: 'command', id, command: command as Command, queuedAt: performance.now(), requestId })
  })
}
