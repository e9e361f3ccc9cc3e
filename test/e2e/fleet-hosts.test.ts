// Real controllers (child processes) with --etcd and simulated processes, against a real etcd.
import type { Etcd3 } from 'etcd3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEtcd } from '../../src/fleet/etcd-client.ts'
import { decodeValue, fleetKeys, Observed } from '../../src/fleet/keys.ts'
import { withChildControllers, type ChildController } from '../helpers/controllers.ts'
import { etcdTest, waitForKey, withEtcd, type Etcd } from '../helpers/etcd.ts'
import { fleetLs } from '../helpers/fleet-cli.ts'

const keys = fleetKeys()
const SIMS = [{ kind: 'primary' as const }, { kind: 'nfv' as const, clientId: 1 }]

/** Resolves once `host`'s observed key lists `processes` (written before or after the call). */
const observedWith = (client: Etcd3, host: string, processes: string[]) =>
  waitForKey(
    client,
    keys.observed(host),
    (e) => {
      const observed = e.value === undefined ? undefined : decodeValue(Observed, e.value)
      return observed?.ok === true && observed.value.processes.join() === processes.join()
    },
    { fromRevision: 1 },
  )

/** An etcd, a client, and controllers a, b, c with a primary and nfv 1 each, all observed. */
const withHosts = (body: (etcd: Etcd, client: Etcd3, hosts: ChildController[]) => Promise<void>) =>
  withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    try {
      await withChildControllers(etcd.url, ['a', 'b', 'c'], SIMS, async (hosts) => {
        await Promise.all(hosts.map((h) => observedWith(client, h.name, ['primary', 'nfv:1'])))
        await body(etcd, client, hosts)
      })
    } finally {
      client.close()
    }
  })

etcdTest(
  test,
  'three controllers are listed alive; one killed with SIGKILL is not, within 15 s',
  () =>
    withHosts(async (etcd, client, [a, , c]) => {
      const listed = await fleetLs(etcd.url)
      assert.equal(
        listed.map(({ host, alive, processes }) => ({ host, alive, processes })),
        ['a', 'b', 'c'].map((host) => ({ host, alive: true, processes: ['primary', 'nfv:1'] })),
      )
      assert.is(listed[0]!.url, `${a!.base}/`, "the alive key carries the controller's API")
      const from = Number((await client.get(keys.alive('c')).exec()).header.revision) + 1
      await c!.kill()
      // The lease (10 s) is no longer kept alive: etcd deletes the key when it expires.
      await waitForKey(client, keys.alive('c'), (e) => e.type === 'delete', {
        fromRevision: from,
        timeoutMs: 15_000,
      })
      const after = await fleetLs(etcd.url)
      assert.equal(
        after.map(({ host, alive }) => `${host} ${alive}`),
        ['a true', 'b true', 'c false'],
      )
    }),
)

test.run()
