// The controller's fleet flags, checked: --etcd URL[,URL...], --host-name NAME, --etcd-prefix P.
import { hostname } from 'node:os'
import * as v from 'valibot'
import type { FleetSettings } from './controller-link.ts'
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

/** The fleet part of the controller's flags: undefined without --etcd; throws the reason. */
export function fleetSettings(
  flags: { etcd?: string; 'host-name'?: string; 'etcd-prefix'?: string },
  version: () => string,
): FleetSettings | undefined {
  const { etcd, 'host-name': host, 'etcd-prefix': prefix } = flags
  if (etcd !== undefined) return { ...parseFleetFlags(etcd, host, prefix), version: version() }
  if (host !== undefined || prefix !== undefined)
    throw new Error('--host-name and --etcd-prefix need --etcd')
  return undefined
}
