// Asking a process: queue one command on its connection and wait for the decoded reply.
import { ControllerError } from '../errors.ts'
import type { ProcessKind } from '../protocol/bodies.ts'
import type { Command } from '../protocol/command.ts'
import { statusOf, type StatusBody } from '../protocol/kinds/status.ts'
import { isSafeLine, isSafeLongLine } from '../protocol/line.ts'
import { admit, writeNext } from './command-flow.ts'
import { createJob, type Job, type JobOptions } from './job.ts'
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
  enqueue(connection, job)
  return promise
}

/**
 * Gives a connection a command, with no event for its machine: a command is taken into the queue
 * (a read joining the read queued at the tail costs nothing more), and the reply awaited writes
 * the next (takeReply, command-flow.ts); one that finds the connection ready with nothing in
 * flight is written at once, as the machine's `command` event would (queue, then writeNext)
 * without a macrostep of its own. Its reply is taken without an event too, so a command answered
 * in time costs its machine none. The machine is at rest whenever this writes: nothing it does
 * while handling an event asks a process, and a command asked by a listener of a settled command
 * (which may be told inside a transition) is only queued: the transition, or takeReply, writes
 * the next, or hands it over when the connection closes.
 */
export function enqueue(connection: ProcessConnection, job: Job): void {
  const { value, context, children } = connection.getSnapshot()
  admit(context, job)
  if (value === 'ready' && !context.done.telling) writeNext(context, children.link)
}

/** A process's status, whatever its kind: the body its own GET endpoint answers. */
export const askStatus = <K extends ProcessKind>(
  connection: ProcessConnection,
  kind: K,
  options?: JobOptions,
): Promise<StatusBody[K]> => ask(connection, statusOf(kind), options)
