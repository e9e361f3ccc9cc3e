// spp_http_auth_refused_total: requests refused for their bearer token, by why; and
// spp_auth_reloads_total: the auth file read again.
import { Counter, type Registry } from './prom.ts'
import type { AuthRefusal } from '../auth/clients.ts'

const CODES: AuthRefusal[] = ['TOKEN_MISSING', 'TOKEN_UNKNOWN', 'SCOPE_MISSING']

/** Registers the counter (each code at 0 from the start) and returns what counts one refusal. */
export function authRefusedCounter(registers: Registry[]): (code: AuthRefusal) => void {
  const refused = new Counter({
    name: 'spp_http_auth_refused_total',
    help: 'Requests refused for their bearer token: none (401), unknown (401), scope too small (403)',
    labelNames: ['code'],
    registers,
  })
  // Present before the first refusal, so that rate() and alerts see the series from zero.
  for (const code of CODES) refused.inc({ code }, 0)
  // prom-client's inc() checks its labels on every call; refusals are few, unlike requests.
  return (code) => refused.inc({ code })
}

/** What reading the auth file again (SIGHUP) came to: its clients in force, or the old ones kept. */
export type AuthReload = 'done' | 'failed'

/** Registers spp_auth_reloads_total (both outcomes at 0 from the start); returns what counts one. */
export function authReloadCounter(registers: Registry[]): (outcome: AuthReload) => void {
  const reloads = new Counter({
    name: 'spp_auth_reloads_total',
    help: 'Times the auth file was read again (SIGHUP): done (its clients in force), failed (the old ones kept)',
    labelNames: ['outcome'],
    registers,
  })
  for (const outcome of ['done', 'failed'] as const) reloads.inc({ outcome }, 0)
  return (outcome) => reloads.inc({ outcome })
}
