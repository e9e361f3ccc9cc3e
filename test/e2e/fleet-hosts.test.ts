// Real controllers (child processes, --etcd, a state directory each) with simulated processes,
// against a real etcd: fleet apply to one host, liveness, a REST change and a restart on a host.
import type { Etcd3 } from 'etcd3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEtcd } from '../../src/fleet/etcd-client.ts'
import { decodeValue, fleetKeys, Observed } from '../../src/fleet/keys.ts'
import { withChildControllers, type ChildController } from '../helpers/controllers.ts'
import { etcdTest, revisionNow, waitForKey, withEtcd, type Etcd } from '../helpers/etcd.ts'
import { fleetCli, fleetLs } from '../helpers/fleet-cli.ts'

const keys = fleetKeys()
const SIMS = [{ kind: 'primary' as const }, { kind: 'nfv' as const, clientId: 1 }]
// nfv 1 gets a ring, a patch onto it, and starts forwarding: three steps.
const CHAIN = `nfvs:
  "1":
    ports: [phy:0, phy:1, ring:0]
    patches: [{ src: phy:0, dst: ring:0 }]
    status: Running
`
const CHAINED = {
  'client-id': 1,
  status: 'Running',
  ports: ['phy:0', 'phy:1', 'ring:0'],
  patches: [{ src: 'phy:0', dst: 'ring:0' }],
}

const observed = (value: string | undefined) => {
  const decoded = value === undefined ? undefined : decodeValue(Observed, value)
  return decoded?.ok ? decoded.value : undefined
}
/** Resolves once `host`'s observed key lists `processes`, each read (written before or after). */
const observedWith = (client: Etcd3, host: string, processes: string[]) =>
  waitForKey(
    client,
    keys.observed(host),
    (e) => {
      const o = observed(e.value)
      const read = o && !JSON.stringify(o.topology).includes('"error"')
      return read === true && o.processes.join() === processes.join()
    },
    { fromRevision: 1 },
  )
const get = async (host: ChildController, path: string) =>
  (await fetch(`${host.base}${path}`)).json() as Promise<unknown>

/** An etcd, a client, and controllers a, b, c with a primary and nfv 1 each, all observed. */
const withHosts = (body: (etcd: Etcd, client: Etcd3, hosts: ChildController[]) => Promise<void>) =>
  withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    try {
      await withChildControllers(etcd.url, ['a', 'b', 'c'], SIMS, async (hosts) => {
        // Observed and alive are written apart (alive on its lease): under load either may be first.
        const alive = (host: string) =>
          waitForKey(client, keys.alive(host), (e) => e.value !== undefined, { fromRevision: 1 })
        await Promise.all(
          hosts.flatMap((h) => [observedWith(client, h.name, ['primary', 'nfv:1']), alive(h.name)]),
        )
        await body(etcd, client, hosts)
      })
    } finally {
      client.close()
    }
  })

etcdTest(
  test,
  'fleet apply b converges b alone; ls lists three alive; c killed is not, in 15 s',
  () =>
    withHosts(async (etcd, client, [a, b, c]) => {
      const before = await Promise.all([a!, c!].map((h) => get(h, '/v1/topology/desired')))
      const untouched = await Promise.all([a!, c!].map((h) => get(h, '/v1/nfvs/1')))
      const applied = await fleetCli(etcd.url, ['apply', 'b', '-f', '-'], { stdin: CHAIN })
      assert.is(applied.code, 0, applied.stderr)
      assert.match(applied.stdout, /Applied 3 steps/)
      assert.equal(await get(b!, '/v1/nfvs/1'), CHAINED)
      const { nfvs } = (await get(b!, '/v1/topology/desired')) as { nfvs: object }
      assert.equal(nfvs, {
        1: { status: 'Running', ports: CHAINED.ports, patches: CHAINED.patches },
      })
      // a and c: no desired key, nothing remembered changed, nothing sent.
      for (const host of ['a', 'c'])
        assert.is((await client.get(keys.desired(host)).exec()).kvs.length, 0)
      assert.equal(await Promise.all([a!, c!].map((h) => get(h, '/v1/topology/desired'))), before)
      assert.equal(await Promise.all([a!, c!].map((h) => get(h, '/v1/nfvs/1'))), untouched)

      const listed = await fleetLs(etcd.url)
      assert.equal(
        listed.map(({ host, alive, processes }) => ({ host, alive, processes })),
        ['a', 'b', 'c'].map((host) => ({ host, alive: true, processes: ['primary', 'nfv:1'] })),
      )
      assert.is(listed[0]!.url, `${a!.base}/`, "the alive key carries the controller's API")
      const from = (await revisionNow(client)) + 1
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

etcdTest(
  test,
  "a REST change reaches a's desired and observed keys; a restart is restored from etcd",
  () =>
    withHosts(async (_etcd, client, [a]) => {
      let from = (await revisionNow(client)) + 1
      const put = await fetch(`${a!.base}/v1/nfvs/1/ports`, {
        method: 'PUT',
        body: JSON.stringify({ action: 'add', port: 'ring:0' }),
      })
      assert.is(put.status, 204)
      const has = (port: string) => (e: { value?: string }) => e.value?.includes(port) === true
      const desired = await waitForKey(client, keys.desired('a'), has('ring:0'), {
        fromRevision: from,
      })
      assert.equal((JSON.parse(desired.value!) as { nfvs: object }).nfvs, {
        1: { status: 'Idle', ports: ['phy:0', 'phy:1', 'ring:0'], patches: [] },
      })
      await waitForKey(client, keys.observed('a'), has('ring:0'), { fromRevision: from })

      // etcd's next revision (written by anyone) is applied, then survives the process's restart.
      from = (await revisionNow(client)) + 1
      await client
        .put(keys.desired('a'))
        .value(JSON.stringify({ nfvs: { 1: CHAINED } }))
        .exec()
      await waitForKey(
        client,
        keys.observed('a'),
        (e) => observed(e.value)?.apply?.state === 'converged',
        {
          fromRevision: from,
        },
      )
      assert.equal(await get(a!, '/v1/nfvs/1'), CHAINED)
      a!.sims.find((s) => s.label === 'nfv 1')!.stop()
      await a!.waitForLog((l) => l.msg === 'process disconnected')
      await a!.connect([{ kind: 'nfv', clientId: 1 }])
      await a!.waitForLog(
        (l) => l.msg === 'restore done' && String(l.restore).startsWith('restore-'),
      )
      assert.equal(await get(a!, '/v1/nfvs/1'), CHAINED)
    }),
)

test.run()
