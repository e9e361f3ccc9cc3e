// How a handler reaches the process its request addresses: find it (404), then ask it.
import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import { ask, askStatus } from '../actors/ask.ts'
import { LONG_FRAME_BYTES } from '../protocol/padded-frames.ts'
import type { Registry } from '../actors/registry.ts'
import type { Profile } from '../protocol/era.ts'
import type { Command, ProcessKind, SecondaryKind } from '../protocol/command.ts'
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
    /**
     * Whether a primary or nfv pads its replies to 32768 bytes (19.11 on). The length is measured
     * from the padding of a reply, known once the next reply starts: until then, one `status` (a
     * read, harmless) is asked first.
     */
    async isRelease1911(c: Context, target: Target): Promise<boolean> {
      const { connection } = registry.find(target.kind, target.clientId)
      const { era, frameBytes } = connection.getSnapshot().context.profile
      if (era === '18.11') return false
      if (frameBytes === undefined) {
        await askStatus(connection, target.kind, { requestId: c.get('requestId') })
      }
      return this.profile(target).frameBytes === LONG_FRAME_BYTES
    },
    /** What the controller knows of the process now. */
    view(target: Target): ProcessView | undefined {
      return registry.find(target.kind, target.clientId).connection.getSnapshot().context.view
    },
  }
}

export type Processes = ReturnType<typeof processesOf>
