// Past etcd's and gRPC's defaults: apply --all over more hosts than one transaction takes, and a
// read of the whole fleet larger than gRPC's default message size.
import { Readable } from 'node:stream'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEtcd } from '../../../src/fleet/etcd-client.ts'
import { readFleet } from '../../../src/cli/fleet/fleet-state.ts'
import { fleetKeys } from '../../../src/fleet/keys.ts'
import { planOrApply } from '../../../src/cli/fleet/plan-apply.ts'
import { etcdTest, withEtcd } from '../../helpers/etcd.ts'
import { applyOf, startFleetHosts, type FleetHost } from '../../helpers/fleet-hosts.ts'

const keys = fleetKeys()
const CHAIN = 'nfvs: { "1": { ports: [phy:0, phy:1, ring:0], status: Running } }\n'

etcdTest(
  test,
  'apply --all past one transaction: one per batch, each host followed at its own',
  () =>
    withEtcd(async (etcd) => {
      const client = await openEtcd([etcd.url])
      const hosts: FleetHost[] = []
      try {
        hosts.push(...(await startFleetHosts(etcd.url, client, ['a', 'b', 'c'])))
        let output = ''
        const io = {
          stdout: { write: (text: string) => ((output += text), true) },
          stderr: { write: (text: string) => ((output += text), true) },
          stdin: Readable.from([Buffer.from(CHAIN)]),
        }
        const status = await planOrApply(client, keys, io, {
          ...{ command: 'apply', hosts: [], all: true, file: '-', detailed: false },
          ...{ timeoutMs: 15_000, batch: 2 },
        })
        assert.is(status, 0, output)
        assert.match(output, /3\/3 hosts converged/)
        // The desired revision each controller applied, as its observed key reports it.
        const applied = await Promise.all(hosts.map((host) => applyOf(client, host.name)))
        assert.equal(
          applied.map((apply) => apply?.state),
          ['converged', 'converged', 'converged'],
        )
        const [a, b, c] = applied.map((apply) => apply!.revision)
        assert.is(a, b, 'a and b in the first transaction')
        assert.ok(c! > a!, 'c in a second one')
      } finally {
        await Promise.all(hosts.map((host) => host.close()))
        client.close()
      }
    }),
)

etcdTest(test, 'a fleet read over 4 MiB (gRPC default for a message) is read whole', () =>
  withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    try {
      const big = JSON.stringify({ nfvs: { 1: { ports: ['phy:0'], pad: 'x'.repeat(1_000_000) } } })
      for (let i = 0; i < 5; i++)
        await client
          .put(keys.desired(`h${i}`))
          .value(big)
          .exec()
      const { state } = await readFleet(client, keys)
      assert.is(state.rows().filter((row) => row.desired).length, 5)
    } finally {
      client.close()
    }
  }),
)

test.run()
