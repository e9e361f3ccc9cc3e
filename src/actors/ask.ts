import { ControllerError } from '../errors.ts'
import type { Result } from '../protocol/result.ts'
import { isSafeLine } from '../protocol/line.ts'
import type { Command } from '../protocol/types.ts'
import type { ProcessConnection } from './process-connection.ts'

type Waiter = (reply: Result<unknown>) => void
let lastId = 0
/** One `settled` listener per connection, handing each reply to its waiter by id. */
const waiters = new WeakMap<ProcessConnection, Map<number, Waiter>>()

function waitersOf(connection: ProcessConnection): Map<number, Waiter> {
  let pending = waiters.get(connection)
  if (!pending) {
    const map = new Map<number, Waiter>()
    connection.on('settled', ({ id, reply }) => {
      const waiter = map.get(id)
      map.delete(id)
      waiter?.(reply)
    })
    waiters.set(connection, (pending = map))
  }
  return pending
}

/**
 * Queues one command; settles with its decoded reply, or fails with the reason it got none.
 * `requestId` names the HTTP request in the command's log line.
 */
export function ask<T>(
  connection: ProcessConnection,
  command: Command<T>,
  requestId?: string,
): Promise<T> {
  if (!isSafeLine(command.line))
    return Promise.reject(
      new ControllerError('INVALID_REQUEST', 'refusing to send a malformed command'),
    )
  if (connection.getSnapshot().status !== 'active') {
    return Promise.reject(new ControllerError('CONNECTION_CLOSED', 'the process has disconnected'))
  }
  const id = ++lastId
  return new Promise<T>((resolve, reject) => {
    waitersOf(connection).set(id, (reply) =>
      reply.ok ? resolve(reply.value as T) : reject(new ControllerError(reply.code, reply.message)),
    )
    connection.send({
      type: 'command',
      id,
      command,
      queuedAt: performance.now(),
      requestId,
    })
  })
}
