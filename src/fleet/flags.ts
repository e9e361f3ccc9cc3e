// The controller's fleet flags, checked: --etcd URL[,URL...], --host-name NAME, --etcd-prefix P, and
// etcd's credentials (--etcd-ca, --etcd-cert, --etcd-key, --etcd-user, --etcd-password-file).
import { hostname } from 'node:os'
import * as v from 'valibot'
import type { FleetSettings } from './controller-link.ts'
import { ACCESS_FLAGS, checkAccess, readCredentials, type EtcdAccess } from './etcd-access.ts'
import { parseEndpoints } from './etcd-client.ts'
import { DEFAULT_PREFIX, HostName } from './keys.ts'

/** The fleet's etcd, this host's name in it (default: the machine's) and the keys' prefix. */
export function parseFleetFlags(etcd: string, host?: string, prefix = DEFAULT_PREFIX) {
  const endpoints = parseEndpoints(etcd)
  const name = host ?? hostname()
  const checked = v.safeParse(HostName, name)
  if (!checked.success)
    throw new Error(
      `--host-name: ${checked.issues[0].message}, got ${JSON.stringify(name)}` +
        (host === undefined ? ' (the machine hostname; give --host-name)' : ''),
    )
  if (!/^\/[\x21-\x7e]*$/.test(prefix))
    throw new Error(
      `--etcd-prefix must start with / and hold no spaces, got ${JSON.stringify(prefix)}`,
    )
  return { endpoints, host: name, prefix }
}

type Flags = {
  etcd?: string
  'host-name'?: string
  'etcd-prefix'?: string
  'etcd-ca'?: string
  'etcd-cert'?: string
  'etcd-key'?: string
  'etcd-user'?: string
  'etcd-password-file'?: string
}

/** The credential flags given, each named by its flag. */
export function accessOf(flags: Flags): EtcdAccess {
  const access: EtcdAccess = {}
  for (const [field, flag] of Object.entries(ACCESS_FLAGS) as [keyof EtcdAccess, string][]) {
    const value = flags[flag.slice(2) as keyof Flags]
    if (value !== undefined) access[field] = { value, from: flag }
  }
  return access
}

/**
 * The fleet part of the controller's flags, its credential files read: undefined without --etcd;
 * throws the reason.
 */
export async function fleetSettings(
  flags: Flags,
  version: () => string,
): Promise<FleetSettings | undefined> {
  const { etcd, 'host-name': host, 'etcd-prefix': prefix } = flags
  const access = accessOf(flags)
  if (etcd === undefined) {
    if (host !== undefined || prefix !== undefined)
      throw new Error('--host-name and --etcd-prefix need --etcd')
    const given = Object.values(access).map((setting) => setting.from)
    if (given.length > 0) throw new Error(`${given.join(', ')}: etcd's credentials need --etcd`)
    return undefined
  }
  const parsed = parseFleetFlags(etcd, host, prefix)
  checkAccess(parsed.endpoints, access)
  const credentials = Object.keys(access).length > 0 ? await readCredentials(access) : undefined
  return { ...parsed, version: version(), credentials }
}
