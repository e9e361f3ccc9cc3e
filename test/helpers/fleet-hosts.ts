// Fleet hosts for tests: real controllers in this process, each started as `spp-ctl --etcd URL
// --host-name NAME --state-dir DIR` starts one (startController, the flags read by fleetSettings),
// on loopback ports, with simulated processes. What a host does with a desired document, its
// observed key and its alive key are the controller's own.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Etcd3 } from 'etcd3'
import { fleetSettings } from '../../src/fleet/flags.ts'
import { decodeValue, fleetKeys, Observed } from '../../src/fleet/keys.ts'
import type { SimSpec } from '../../src/sim/start-sims.ts'
import type { RestoreMode } from '../../src/remember/restore.ts'
import { waitForKey } from './etcd.ts'
import { startHarness, type Harness } from './harness.ts'

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version

/** What every host runs unless told otherwise: a primary (two phys, four rings) and nfv 1. */
export const HOST_SIMS: SimSpec[] = [{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }]

export type FleetHostOptions = {
  sims?: SimSpec[]
  /** --restore (default on: a desired document is applied). */
  restore?: RestoreMode
}

/** A controller in the fleet: its harness, its name, and the URL its alive key carries. */
export type FleetHost = Harness & {
  name: string
  url: string
  /** Stops the controller (its alive key is revoked) and removes its state directory; twice is fine. */
  close: () => Promise<void>
}

/** The names observed uses for the processes of `sims`: `primary`, `nfv:1`, ... */
export const processNames = (sims: SimSpec[]) =>
  sims.map(({ kind, clientId }) => (kind === 'primary' ? 'primary' : `${kind}:${clientId}`))

/** Starts host `name` against the etcd at `endpoint`, with a state directory of its own. */
export async function startFleetHost(
  endpoint: string,
  name: string,
  { sims = HOST_SIMS, restore = 'on' }: FleetHostOptions = {},
): Promise<FleetHost> {
  const stateDir = mkdtempSync(join(tmpdir(), `spp-fleet-${name}-`))
  const fleet = await fleetSettings({ etcd: endpoint, 'host-name': name }, () => VERSION)
  let harness: Harness
  try {
    harness = await startHarness(sims, { stateDir, restore, fleet })
  } catch (error) {
    rmSync(stateDir, { recursive: true, force: true })
    throw error
  }
  let closed: Promise<void> | undefined
  return {
    ...harness,
    name,
    url: `http://127.0.0.1:${harness.controller.apiPort}/`,
    close: () =>
      (closed ??= harness
        .close()
        .finally(() => rmSync(stateDir, { recursive: true, force: true }))),
  }
}

const observed = (value: string | undefined) => {
  const decoded = value === undefined ? undefined : decodeValue(Observed, value)
  return decoded?.ok ? decoded.value : undefined
}

/**
 * Starts one host per name (options per name), and resolves once each one's observed key lists
 * its processes, each of them read: what `fleet plan` and `fleet apply` plan against.
 */
export async function startFleetHosts(
  endpoint: string,
  client: Etcd3,
  names: string[],
  optionsOf: (name: string) => FleetHostOptions = () => ({}),
): Promise<FleetHost[]> {
  const keys = fleetKeys()
  const started = await Promise.allSettled(
    names.map((name) => startFleetHost(endpoint, name, optionsOf(name))),
  )
  const hosts = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
  try {
    const failed = started.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    await Promise.all(
      hosts.map((host) => {
        const wanted = processNames(optionsOf(host.name).sims ?? HOST_SIMS).join()
        return waitForKey(
          client,
          keys.observed(host.name),
          (e) => {
            const o = observed(e.value)
            const read = o !== undefined && !JSON.stringify(o.topology).includes('"error"')
            return read && o.processes.join() === wanted
          },
          { fromRevision: 1 },
        )
      }),
    )
    return hosts
  } catch (error) {
    await Promise.all(hosts.map((host) => host.close()))
    throw error
  }
}

/** The apply progress in `host`'s observed key now, if any. */
export async function applyOf(client: Etcd3, host: string) {
  const [kv] = (await client.get(fleetKeys().observed(host)).exec()).kvs
  return observed(kv?.value.toString())?.apply
}
