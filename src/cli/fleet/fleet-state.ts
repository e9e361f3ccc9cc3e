// The fleet as its keys tell it: one row per host, from a read of the prefix or a watch of it.
import type { Etcd3 } from 'etcd3'
import { text } from '../../fleet/etcd-client.ts'
import { Alive, decodeValue, Observed, type FleetKeys } from '../../fleet/keys.ts'

/** One host as `fleet ls --json` prints it and the fleet page shows it. */
export type HostRow = {
  host: string
  alive: boolean
  /** The controller's API: from its alive key, or the last observed one when it is gone. */
  url: string | null
  /** Its processes now: none when it is not alive (unreachable: its last report is stale). */
  processes: string[]
  /** Steps from live to desired; null before the host's first observed write, or not alive. */
  drift: number | null
  eras: string[]
  /** When the host last wrote observed (alive or not: when it was last heard of). */
  updated: string | null
  /** Whether a desired document is stored for the host. */
  desired: boolean
}

type Known = { alive?: Alive; observed?: Observed; desired?: boolean }

/** What the keys say, updated key by key (a read or watch events). */
export function createFleetState(keys: FleetKeys) {
  const hosts = new Map<string, Known>()
  return {
    /** A key's new value, or undefined when it was deleted; false for a key outside the layout. */
    set(key: string, value: string | undefined): boolean {
      const which = keys.parse(key)
      if (!which) return false
      const known = hosts.get(which.host) ?? {}
      if (which.value === 'desired') known.desired = value !== undefined
      else if (value === undefined) delete known[which.value]
      else {
        // A value that does not pass its schema counts as absent rather than breaking the list.
        const decoded =
          which.value === 'alive' ? decodeValue(Alive, value) : decodeValue(Observed, value)
        if (decoded.ok) Object.assign(known, { [which.value]: decoded.value })
        else delete known[which.value]
      }
      if (known.alive || known.observed || known.desired) hosts.set(which.host, known)
      else hosts.delete(which.host)
      return true
    },
    /** Every host, by name. */
    rows(): HostRow[] {
      return [...hosts.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([host, { alive, observed, desired }]) => {
          // A host whose lease is gone is unreachable: what it last observed is no longer so.
          const now = alive ? observed : undefined
          return {
            host,
            alive: alive !== undefined,
            url: alive?.url ?? observed?.url ?? null,
            processes: now?.processes ?? [],
            drift: now?.drift ?? null,
            eras: now?.eras ?? [],
            updated: observed?.updated ?? null,
            desired: desired === true,
          }
        })
    },
  }
}

/** Reads every host's keys at one revision. */
export async function readFleet(client: Etcd3, keys: FleetKeys) {
  const result = await client.getAll().prefix(keys.hosts).exec()
  const state = createFleetState(keys)
  for (const kv of result.kvs) state.set(kv.key.toString(), text(kv))
  return { state, revision: Number(result.header.revision) }
}
