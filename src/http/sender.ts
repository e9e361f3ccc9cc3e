import type { Context } from 'hono'
import { ask } from '../actors/ask.ts'
import type { ProcessConnection } from '../actors/process-connection.ts'
import type { Command } from '../protocol/types.ts'

/** Sends commands to the process a request addresses; each command's log line names the request. */
export const sender =
  (c: Context, connection: ProcessConnection) =>
  <T>(command: Command<T>): Promise<T> =>
    ask(connection, command, c.get('requestId'))
