// How a handler reaches the process its request addresses: find it (404), then ask it.
import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import { ask } from '../actors/ask.ts'
import type { Registry } from '../actors/registry.ts'
import type { Profile } from '../protocol/era.ts'
import type { Command, ProcessKind, SecondaryKind } from '../protocol/types.ts'
import type { ProcessView } from '../state/process-view.ts'

/** The process a request addresses, by identity: its connection is looked up when it is asked. */
export type Target = { kind: ProcessKind; clientId?: number }

/**
 * Whether the HTTP client went away before its answer was sent. Asked only when its command is
 * about to be written: an AbortController and a 'close' listener per request cost more.
 */
function clientGone(c: Context): (() => boolean) | undefined {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
  if (!outgoing) return undefined
  return () => outgoing.destroyed && !outgoing.writableFinished
}

/** Finding and asking processes on behalf of requests. */
export function processesOf(registry: Registry) {
  return {
    /** The primary (404 if it is not connected). */
    primary(): Target {
      registry.primary()
      return { kind: 'primary' }
    },
    /** The secondary of this kind that the request's `client_id` names (404 if none). */
    secondary(c: Context, kind: SecondaryKind): Target {
      const { clientId } = registry.secondary(kind, Number(c.req.param('client_id')))
      return { kind, clientId }
    },
    /**
     * Queues a command for the process as it is connected now (it may have reconnected while the
     * request body was read); settles with the decoded reply.
     */
    ask<T>(c: Context, target: Target, command: Command<T>): Promise<T> {
      const { connection } = registry.find(target.kind, target.clientId)
      return ask(connection, command, { requestId: c.get('requestId'), left: clientGone(c) })
    },
    /** The wire dialect learnt from the process so far (protocol/era.ts). */
    profile(target: Target): Profile {
      return registry.find(target.kind, target.clientId).connection.getSnapshot().context.profile
    },
    /** What the controller knows of the process now. */
    view(target: Target): ProcessView | undefined {
      return registry.find(target.kind, target.clientId).connection.getSnapshot().context.view
    },
  }
}

export type Processes = ReturnType<typeof processesOf>
