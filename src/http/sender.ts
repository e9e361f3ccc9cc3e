import type { Context } from 'hono'
import { ask } from '../actors/ask.ts'
import type { ProcessConnection } from '../actors/process-connection.ts'
import type { Registry } from '../actors/registry.ts'
import type { Command, SecondaryKind } from '../protocol/types.ts'

/** Sends commands to the process a request addresses; each command's log line names the request. */
export const sender =
  (c: Context, connection: ProcessConnection) =>
  <T>(command: Command<T>): Promise<T> =>
    ask(connection, command, c.get('requestId'))

/** The secondary of this kind that a request's `client_id` names (404 if none), ready to send to. */
export const secondarySender = (registry: Registry, kind: SecondaryKind) => (c: Context) =>
  sender(c, registry.secondary(kind, Number(c.req.param('client_id'))).connection)
