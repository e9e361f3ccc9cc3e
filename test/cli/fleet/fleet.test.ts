// `spp-ctl fleet ls|get|plan|apply` against a real etcd and real controllers (in this process, with
// simulated processes) that converge on a new desired document.
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Etcd3 } from 'etcd3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { openEtcd } from '../../../src/fleet/etcd-client.ts'
import { fleetKeys } from '../../../src/fleet/keys.ts'
import { buildDist } from '../../helpers/build.ts'
import { etcdTest, withEtcd, type Etcd } from '../../helpers/etcd.ts'
import { fleetCli, type ListedHost } from '../../helpers/fleet-cli.ts'
import { applyOf, startFleetHosts, type FleetHost } from '../../helpers/fleet-hosts.ts'
import { commandsOf } from '../../helpers/harness.ts'
import { runCli } from '../../helpers/run-cli.ts'

const keys = fleetKeys()
// nfv 1 gets a ring, a patch onto it, and starts forwarding: three steps on a host.
const CHAIN = `nfvs:
  "1":
    ports: [phy:0, phy:1, ring:0]
    patches: [{ src: phy:0, dst: ring:0 }]
    status: Running
`
/** nfv 1 as the REST API shows it once CHAIN is applied. */
const CHAINED = {
  'client-id': 1,
  status: 'Running',
  ports: ['phy:0', 'phy:1', 'ring:0'],
  patches: [{ src: 'phy:0', dst: 'ring:0' }],
}

type Fleet = { etcd: Etcd; client: Etcd3; hosts: FleetHost[] }
/**
 * An etcd, a client, and controllers a, b, c (alive, observed written), each with a primary and
 * nfv 1 unless `optionsOf` says otherwise; all closed afterwards.
 */
const withHosts = (
  body: (fleet: Fleet) => Promise<void>,
  optionsOf?: Parameters<typeof startFleetHosts>[3],
) =>
  withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    const hosts: FleetHost[] = []
    try {
      hosts.push(...(await startFleetHosts(etcd.url, client, ['a', 'b', 'c'], optionsOf)))
      await body({ etcd, client, hosts })
    } finally {
      await Promise.all(hosts.map((host) => host.close()))
      client.close()
    }
  })

/** nfv 1 as `host`'s REST API shows it. */
const nfv1Of = async (host: FleetHost) => (await host.api('GET', '/v1/nfvs/1')).json()
/** Whether `host`'s processes were sent nothing but status reads. */
const untouched = (host: FleetHost) =>
  host.sims.every((sim) => commandsOf(sim).every((command) => command === 'status'))

/** Runs `spp-ctl fleet ...args` in this process against `etcd`. */
const fleet = (
  etcd: Etcd,
  ...rest: Parameters<typeof fleetCli> extends [string, ...infer R] ? R : never
) => fleetCli(etcd.url, ...rest)

etcdTest(test, 'ls lists every host, alive or not, as a table and as JSON', () =>
  withHosts(async ({ etcd, hosts }) => {
    const listed = await fleet(etcd, ['ls', '--json'])
    assert.is(listed.code, 0, listed.stderr)
    const rows = JSON.parse(listed.stdout) as Record<string, unknown>[]
    assert.equal(
      rows.map(({ host, alive, url, processes, drift }) => ({
        host,
        alive,
        url,
        processes,
        drift,
      })),
      hosts.map(({ name, url }) => ({
        host: name,
        alive: true,
        url,
        processes: ['primary', 'nfv:1'],
        drift: 0,
      })),
    )
    await hosts[2]!.close() // revokes its lease: gone from the alive hosts at once
    const table = await fleet(etcd, ['ls'])
    assert.match(table.stdout, /^HOST +STATE +ERAS +PROCESSES +DRIFT +UPDATED +URL\n/)
    // What c last observed is stale: no processes, no drift; when it was last heard of stays.
    assert.match(table.stdout, /\nc +unreachable +- +- +- +\d{4}-\d\d-\d\dT[^ ]+ +http:/)
    assert.match(table.stdout, /\na +alive +18\.11 +primary nfv:1 +0 /)
    const json = JSON.parse((await fleet(etcd, ['ls', '--json'])).stdout) as ListedHost[]
    assert.equal(
      json.map(({ host, alive, processes, drift }) => ({ host, alive, processes, drift }))[2],
      { host: 'c', alive: false, processes: [], drift: null },
    )
    await etcd.stop()
    const down = await fleet(etcd, ['ls'])
    assert.is(down.code, 1)
    assert.match(
      down.stderr,
      /^spp-ctl fleet: cannot reach etcd at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
    )
  }),
)

etcdTest(test, 'plan shows the diff against the observed state; apply converges b only', () =>
  withHosts(async ({ etcd, client, hosts }) => {
    const planned = await fleet(etcd, ['plan', 'b', '-f', '-', '--detailed-exitcode'], {
      stdin: CHAIN,
    })
    assert.is(planned.code, 2, planned.stderr)
    assert.match(planned.stdout, /nfv 1\n {4}~ status Idle -> Running\n {4}\+ port ring:0/)
    assert.match(planned.stdout, /Steps \(3\):/)
    assert.is((await client.get(keys.desired('b')).exec()).kvs.length, 0, 'plan writes nothing')

    const applied = await fleet(etcd, ['apply', 'b', '-f', '-'], { stdin: CHAIN })
    assert.is(applied.code, 0, applied.stderr)
    assert.match(applied.stdout, /Applying 3 steps:\n {2}done 1\/3 {2}add ring:0 to nfv 1/)
    assert.match(
      applied.stdout,
      /done 3\/3 {2}start forwarding on nfv 1: Running is wanted {2}\(\d+\.\d s\)\nApplied 3 steps in/,
    )
    const [a, b, c] = hosts as [FleetHost, FleetHost, FleetHost]
    const [desired] = (await client.get(keys.desired('b')).exec()).kvs
    const apply = await applyOf(client, 'b')
    assert.equal(
      [apply?.state, apply?.revision],
      ['converged', Number(desired!.mod_revision)],
      "b's controller applied the revision written",
    )
    assert.equal(await nfv1Of(b), CHAINED)
    assert.equal([untouched(a), untouched(c)], [true, true], 'a and c untouched')
    assert.equal(
      [await applyOf(client, 'a'), await applyOf(client, 'c')],
      [undefined, undefined],
      'a and c applied nothing',
    )

    const got = await fleet(etcd, ['get', 'b'])
    assert.equal(parse(got.stdout), parse(CHAIN))
    const again = await fleet(etcd, ['plan', 'b', '-f', '-', '--detailed-exitcode'], {
      stdin: CHAIN,
    })
    assert.is(again.code, 0, again.stdout)
    assert.match(again.stdout, /No changes/)
    const none = await fleet(etcd, ['get', 'a'])
    assert.is(none.code, 1)
    assert.match(none.stderr, /no desired document for a/)
  }),
)

etcdTest(test, 'a refused document and a step that fails on the host exit 1, named', () =>
  withHosts(async ({ etcd, hosts: [a] }) => {
    const refused = await fleet(etcd, ['apply', 'a', '-f', '-'], {
      stdin: 'nfvs: { "9": { status: Running } }',
    })
    assert.is(refused.code, 1)
    assert.match(refused.stderr, /a: refused key\(nfvs\.9\): no nfv with client id 9 is connected/)
    for (const [args, why] of [
      [['plan', '-f', '-'], /plan needs one HOST, or --all/],
      [['apply', 'a'], /apply needs -f FILE/],
      [['apply', 'nobody', '-f', '-'], /nobody is not alive/],
      [['frobnicate'], /unknown command frobnicate: expected ls, get, plan, apply or serve\n/],
    ] as const) {
      const usage = await fleet(etcd, [...args], { stdin: CHAIN })
      assert.is(usage.code, 1, args.join(' '))
      assert.match(usage.stderr, why)
    }
    // a's nfv 1 never answers the patch: the step fails on the host when its reply is overdue.
    const nfv = a!.sim('nfv 1')
    nfv.on('command', (line: string) => {
      if (line.startsWith('patch')) nfv.faults = { silentAt: nfv.received.length - 1 }
    })
    const failed = await fleet(etcd, ['apply', 'a', '-f', '-'], { stdin: CHAIN })
    assert.is(failed.code, 1)
    assert.match(failed.stdout, /done 1\/3 {2}add ring:0 to nfv 1.*\n {2}FAILED 2\/3 {2}patch/)
    assert.match(
      failed.stderr,
      /Failed at step 2\/3: patch phy:0 -> ring:0 on nfv 1\n {2}PUT \/v1\/nfvs\/1\/patches .*\n {2}-> 500: no reply within 2000 ms/,
    )
    assert.equal(
      commandsOf(nfv).filter((line) => line !== 'status'),
      ['add ring:0', 'patch phy:0 ring:0'],
      'nothing sent after the failed step',
    )
  }),
)

etcdTest(
  test,
  'a desired key changed between plan and write is a conflict: exit 3, nothing written',
  () =>
    withHosts(async ({ etcd, client }) => {
      await client.put(keys.desired('b')).value('{}').exec()
      // Another writer lands while the plan is being printed, i.e. after the CLI read the key.
      const other = JSON.stringify({ nfvs: { 1: { status: 'Idle' } } })
      const raced = await fleet(etcd, ['apply', 'b', '-f', '-'], {
        stdin: CHAIN,
        onOutput: (text) => text.includes('Steps (') && putNow(etcd, keys.desired('b'), other),
      })
      assert.is(raced.code, 3, raced.stderr)
      assert.match(raced.stderr, /conflict: the desired document of b changed since it was read/)
      const [kv] = (await client.get(keys.desired('b')).exec()).kvs
      assert.is(kv!.value.toString(), other, 'the other writer was not overwritten')
    }),
)

etcdTest(test, 'apply --all converges every alive host, one line each', () =>
  withHosts(async ({ etcd, client, hosts }) => {
    await hosts[2]!.close()
    const applied = await fleet(etcd, ['apply', '--all', '-f', '-', '--detailed-exitcode'], {
      stdin: CHAIN,
    })
    assert.is(applied.code, 2, applied.stderr)
    assert.match(applied.stdout, /== a ==\n/)
    assert.match(applied.stdout, /Applying to 2 hosts:\n/)
    const lines = applied.stdout.split('\n').filter((line) => /^ {2}\S+ +converged /.test(line))
    assert.equal(lines.map((line) => line.trim().split(/\s+/)[0]).sort(), ['a', 'b'])
    assert.match(applied.stdout, /2\/2 hosts converged in \d+\.\d s\.\n$/)
    const [a, b] = hosts as [FleetHost, FleetHost]
    assert.equal([await nfv1Of(a), await nfv1Of(b)], [CHAINED, CHAINED])
    assert.is((await client.get(keys.desired('c')).exec()).kvs.length, 0, 'c was given nothing')
  }),
)

etcdTest(
  test,
  'the installed command runs the fleet tools (etcd3 from node_modules), etcd from $SPP_CTL_ETCD',
  () =>
    withHosts(async ({ etcd, hosts }) => {
      buildDist()
      const env = { SPP_CTL_ETCD: etcd.url }
      const listed = await runCli(['fleet', 'ls', '--json'], env)
      assert.is(listed.code, 0, listed.stderr)
      assert.equal(
        (JSON.parse(listed.stdout) as { host: string }[]).map((row) => row.host),
        ['a', 'b', 'c'],
      )
      await hosts[1]!.close()
      await hosts[2]!.close()
      const dir = await mkdtemp(join(tmpdir(), 'spp-fleet-'))
      try {
        const file = join(dir, 'chain.yaml')
        await writeFile(file, CHAIN)
        const applied = await runCli(['fleet', 'apply', '--all', '-f', file], env)
        assert.is(applied.code, 0, applied.stderr)
        assert.match(
          applied.stdout,
          /\nApplying to 1 host:\n {2}a +converged 3\/3\n1\/1 host converged in /,
        )
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
      // --etcd wins over the environment; a bad URL there is named as coming from it.
      const wins = await runCli(['fleet', 'ls', '--etcd', etcd.url], { SPP_CTL_ETCD: 'nonsense' })
      assert.is(wins.code, 0, wins.stderr)
      const bad = await runCli(['fleet', 'ls'], { SPP_CTL_ETCD: 'ftp://x' })
      assert.is(bad.code, 1)
      assert.match(bad.stderr, /^spp-ctl fleet: \$SPP_CTL_ETCD: /)
    }),
)

/** Puts a key through etcd's JSON gateway, synchronously: lands before the caller goes on. */
function putNow(etcd: Etcd, key: string, value: string) {
  const body = JSON.stringify({
    key: Buffer.from(key).toString('base64'),
    value: Buffer.from(value).toString('base64'),
  })
  const script = `const r = await fetch(process.argv[1], { method: 'POST', body: process.argv[2] }); if (!r.ok) process.exit(1)`
  execFileSync(process.execPath, [
    '--input-type=module',
    '-e',
    script,
    `${etcd.url}/v3/kv/put`,
    body,
  ])
}

test.run()
