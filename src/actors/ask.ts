import { ControllerError } from '../errors.ts'
import { isSafeLine } from '../protocol/line.ts'
import { requestContext } from '../request-context.ts'
import type { Command } from '../protocol/types.ts'
import type { ProcessConnection } from './process-connection.ts'

let lastId = 0

/** Queues one command; settles with its decoded reply, or fails with the reason it got none. */
export function ask<T>(connection: ProcessConnection, command: Command<T>): Promise<T> {
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
    connection.send({ type: 'command', id, command: command as Command, queuedAt: performance.now(), requestId: requestContext.getStore()?.requestId })
  })
}
