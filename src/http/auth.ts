// Who made each request (the `principal` of the context), and whether their token lets them.
import type { HttpBindings } from '@hono/node-server'
import type { Context, MiddlewareHandler } from 'hono'
import { findClient, type AuthRefusal, type Client, type Scope } from '../auth/clients.ts'
import { ControllerError } from '../protocol/errors.ts'
import { requestHeader } from './validate.ts'

/**
 * Who made a request: what the journal records and the request's log line shows. (An apply's and
 * a restore's steps are no requests: they are journaled as `apply ID` and `restore`.)
 */
export type Principal =
  | { kind: 'token'; name: string; scope: Scope }
  | { kind: 'local' } // over --api-socket: the host's administrator
  | { kind: 'anonymous'; peer: string }

declare module 'hono' {
  interface ContextVariableMap {
    /** Who made the request (set for every request by the authenticate middleware). */
    principal: Principal
  }
}

/** A principal in one word or two: `ops`, `local`, `anonymous 10.0.0.9:51234`. */
export function describePrincipal(p: Principal): string {
  if (p.kind === 'token') return p.name
  return p.kind === 'local' ? 'local' : `anonymous ${p.peer}`
}

/** What the node server under the app passes: the unix socket's server adds `local`. */
export type ServerBindings = Partial<HttpBindings> & { local?: boolean }

export type AuthenticateOptions = {
  /**
   * The clients of --auth-file (or what gives the ones in force, when the file is read again);
   * without it, every request is served (as SPP's controller did).
   */
  clients?: readonly Client[] | (() => readonly Client[])
  /** --allow-read-anonymous: a GET needs no token (a presented one must still be valid). */
  allowReadAnonymous?: boolean
  /** GET paths anyone may load: the page and the docs, which carry no data of their own. */
  publicPaths: readonly string[]
  /** Told of each request refused for its token (counted in /metrics). */
  onRefused?: (code: AuthRefusal) => void
}

const BEARER = /^Bearer +([\w.~+/-]+=*) *$/i

/**
 * Sets `principal` on every request and, with clients, refuses (401, 403) one whose token is
 * missing, unknown or of too small a scope, before any route runs: nothing reaches a process.
 * GET and HEAD need `read`; every other method `write`. Requests on the unix socket are the
 * local administrator's. A request with no node socket under it (a test's `app.request`) is
 * checked as any other, from its own headers.
 */
export function authenticate(options: AuthenticateOptions) {
  const { allowReadAnonymous, publicPaths, onRefused } = options
  const inForce = options.clients
  const current = typeof inForce === 'function' ? inForce : () => inForce
  const open = new Set(publicPaths)
  const refuse = (code: AuthRefusal, message: string) => {
    onRefused?.(code)
    return new ControllerError(code, message)
  }
  // Not async: it hands on next()'s own promise (an async function would wrap it in another, with
  // its microtasks, per request); a refusal thrown here is caught by hono's compose as one thrown later.
  return function authenticateRequest(c: Context, next: () => Promise<void>): Promise<void> {
    const node = c.env as ServerBindings | undefined
    const incoming = node?.incoming
    if (node?.local) {
      c.set('principal', { kind: 'local' })
    } else {
      const socket = incoming?.socket
      const peer = socket ? `${socket.remoteAddress}:${socket.remotePort}` : 'in-process'
      c.set('principal', { kind: 'anonymous', peer })
      const reading = c.req.method === 'GET' || c.req.method === 'HEAD'
      const clients = current()
      if (clients && !(reading && open.has(c.req.path))) {
        const header = requestHeader(c, 'authorization')
        const token = header === undefined ? undefined : BEARER.exec(header)?.[1]
        if (header === undefined && reading && allowReadAnonymous) return next()
        if (token === undefined) throw refuse('TOKEN_MISSING', MISSING)
        const client = findClient(clients, token)
        if (!client) throw refuse('TOKEN_UNKNOWN', UNKNOWN)
        c.set('principal', { kind: 'token', name: client.name, scope: client.scope })
        if (!reading && client.scope !== 'write') throw refuse('SCOPE_MISSING', tooSmall(c, client))
      }
    }
    return next()
  } satisfies MiddlewareHandler
}

const MISSING =
  'A bearer token is needed: send "Authorization: Bearer TOKEN" (spp-ctl auth add makes one).\n' +
  "spp-ctl's commands send the token of --token-file FILE, else of $SPP_CTL_TOKEN."
// Never the token itself, not even cut: a near-miss of a real token is still a secret.
const UNKNOWN = 'The bearer token is not one this controller knows.'
const tooSmall = (c: Context, client: Client) =>
  `${c.req.method} needs a token of scope write; the token of ${client.name} has scope ${client.scope}.`
