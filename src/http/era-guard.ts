// Which era a request's process belongs to, and the refusal of commands its release lacks.
import type { Context } from 'hono'
import { askStatus } from '../actors/ask.ts'
import type { Registry } from '../actors/registry.ts'
import { ControllerError } from '../errors.ts'
import type { Era, Profile } from '../protocol/era.ts'
import type { Processes, Target } from './processes.ts'

const NAMES = { primary: 'the primary', nfv: 'nfv', vf: 'vf', mirror: 'mirror', pcap: 'pcap' }
const who = ({ kind, clientId }: Target) =>
  clientId === undefined ? NAMES[kind] : `${NAMES[kind]} ${clientId}`

/**
 * The process's profile with its era known. A vf or mirror tells its era only in its status: if
 * none was read yet, one `status` is read first (a read-only command, never taken for a change).
 */
export async function profileOf(
  c: Context,
  registry: Registry,
  processes: Processes,
  target: Target,
): Promise<Profile> {
  const profile = processes.profile(target)
  if (profile.era !== undefined) return profile
  const { connection } = registry.find(target.kind, target.clientId)
  await askStatus(connection, target.kind, { requestId: c.get('requestId') })
  return processes.profile(target)
}

/** 405, nothing sent, unless the process is of the era that has this command. */
export async function requireEra(
  c: Context,
  registry: Registry,
  processes: Processes,
  target: Target,
  era: Era,
  what: string,
): Promise<Profile> {
  const profile = await profileOf(c, registry, processes, target)
  if (profile.era !== era)
    throw new ControllerError(
      'NOT_IN_RELEASE',
      `${what} is not supported by the release of ${who(target)} (SPP ${profile.era ?? 'unknown'}); it needs SPP ${era}`,
    )
  return profile
}
