// Asking a process: queue one command on its connection and wait for the decoded reply.
import { ControllerError } from '../errors.ts'
import type { ProcessKind } from '../protocol/bodies.ts'
import type { Command } from '../protocol/command.ts'
import { statusOf, type StatusBody } from '../protocol/kinds/status.ts'
import { isSafeLine, isSafeLongLine } from '../protocol/line.ts'
import { admit } from './connection-setup.ts'
import { createJob, type JobOptions } from './job.ts'
import type { ProcessConnection } from './process-connection.ts'

/**
 * Queues one command; settles with its decoded reply, or fails with the reason it got none.
 * `requestId` names the HTTP request in the command's log line; `signal` aborts when the client
 * gives up, which takes a command not yet written out of the queue.
 */
export function ask<T>(
  connection: ProcessConnection,
  command: Command<T>,
  options?: JobOptions,
): Promise<T> {
  if (!(command.long ? isSafeLongLine(command.line) : isSafeLine(command.line))) {
    return Promise.reject(
      new ControllerError('INVALID_REQUEST', 'refusing to send a malformed command'),
    )
  }
  const snapshot = connection.getSnapshot()
  if (snapshot.status !== 'active') {
    return Promise.reject(new ControllerError('CONNECTION_CLOSED', 'the process has disconnected'))
  }
  const { job, promise } = createJob(command, options)
  // Only a connection with nothing in flight needs waking. A busy one takes the command into its
  // queue without an event (a read joining the read queued there costs nothing more): the reply
  // it awaits writes the next command, in the same transition.
  const { context } = snapshot
  if (snapshot.value === 'ready' && !context.queue.current)
    connection.send({ type: 'command', job })
  else admit(context, job)
  return promise
}

/** A process's status, whatever its kind: the body its own GET endpoint answers. */
export const askStatus = <K extends ProcessKind>(
  connection: ProcessConnection,
  kind: K,
  options?: JobOptions,
): Promise<StatusBody[K]> => ask(connection, statusOf(kind), options)
