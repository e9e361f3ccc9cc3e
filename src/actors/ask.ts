// Asking a process: queue one command on its connection and wait for the decoded reply.
import { ControllerError } from '../errors.ts'
import { isSafeLine, isSafeLongLine } from '../protocol/line.ts'
import { nfvCommands } from '../protocol/kinds/nfv.ts'
import { pcapCommands } from '../protocol/kinds/pcap.ts'
import { primaryCommands } from '../protocol/kinds/primary.ts'
import type { Command, ProcessKind } from '../protocol/command.ts'
import { mirrorCommands, vfCommands } from '../protocol/kinds/vf.ts'
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
  if (connection.getSnapshot().status !== 'active') {
    return Promise.reject(new ControllerError('CONNECTION_CLOSED', 'the process has disconnected'))
  }
  const { job, promise } = createJob(command, options)
  connection.send({ type: 'command', job })
  return promise
}

/** A process's status, whatever its kind: the body its own GET endpoint answers. */
export function askStatus(
  connection: ProcessConnection,
  kind: ProcessKind,
  options?: JobOptions,
): Promise<object> {
  switch (kind) {
    case 'primary':
      return ask(connection, primaryCommands.status(), options)
    case 'nfv':
      return ask(connection, nfvCommands.status(), options)
    case 'vf':
      return ask(connection, vfCommands.status(), options)
    case 'mirror':
      return ask(connection, mirrorCommands.status(), options)
    case 'pcap':
      return ask(connection, pcapCommands.status(), options)
  }
}
