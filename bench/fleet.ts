// npm run bench:fleet [-- N]: N real controllers (child processes, simulated processes) on one etcd,
// `fleet apply --all`, one REST change per host written back, and what each cost etcd (its /metrics).
import { Readable } from 'node:stream'
import { runFleet } from '../src/cli/fleet/fleet.ts'
import { openEtcd } from '../src/fleet/etcd-client.ts'
import { decodeValue, fleetKeys, Observed } from '../src/fleet/keys.ts'
import { startFleetServer } from '../src/cli/fleet/serve.ts'
import { startChildController, type ChildController } from '../test/helpers/controllers.ts'
import { waitForKey, withEtcd, type Etcd } from '../test/helpers/etcd.ts'

const N = Number(process.argv[2] ?? 10)
const SIMS = [{ kind: 'primary' as const }, { kind: 'nfv' as const, clientId: 1 }]
const CHAIN = 'nfvs: { "1": { ports: [phy:0, phy:1, ring:0], status: Running } }\n'
const WRITES = ['etcd_mvcc_put_total', 'etcd_mvcc_txn_total', 'etcd_mvcc_delete_total']
const METRICS = [
  ...WRITES,
  'etcd_mvcc_range_total',
  'etcd_debugging_mvcc_events_total',
  'etcd_debugging_mvcc_watcher_total',
  'etcd_debugging_mvcc_watch_stream_total',
  'etcd_debugging_lease_granted_total',
]

/** The counters and gauges above, from etcd's /metrics. */
async function metrics(etcd: Etcd): Promise<Record<string, number>> {
  const text = await (await fetch(`${etcd.url}/metrics`)).text()
  const out: Record<string, number> = {}
  for (const name of METRICS) {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `))
    out[name] = line ? Number(line.split(' ')[1]) : NaN
  }
  return out
}
const delta = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(METRICS.slice(0, 5).map((m) => [m, after[m]! - before[m]!]))
const writes = (d: Record<string, number>) => WRITES.reduce((sum, m) => sum + d[m]!, 0)
const ms = (since: number) => Math.round(performance.now() - since)

await withEtcd(async (etcd) => {
  const keys = fleetKeys()
  const client = await openEtcd([etcd.url])
  const hosts: ChildController[] = []
  const server = await startFleetServer({ endpoints: [etcd.url], keys, host: '127.0.0.1', port: 0 })
  const page = new AbortController()
  try {
    let began = performance.now()
    const names = Array.from({ length: N }, (_, i) => `h${i}`)
    // Started a few at a time: each one compiles the sources under tsx as it starts.
    for (let i = 0; i < N; i += 4)
      hosts.push(
        ...(await Promise.all(
          names.slice(i, i + 4).map((name) => startChildController(etcd.url, name, SIMS)),
        )),
      )
    await Promise.all(
      names.map((name) =>
        waitForKey(
          client,
          keys.observed(name),
          (e) => {
            const observed = e.value === undefined ? undefined : decodeValue(Observed, e.value)
            // Every process read: fleet apply plans against this.
            const read = observed?.ok && !JSON.stringify(observed.value.topology).includes('error')
            return read === true && observed.value.processes.includes('nfv:1')
          },
          { fromRevision: 1, timeoutMs: 60_000 },
        ),
      ),
    )
    console.log(`${N} controllers alive, each with a primary and nfv 1, in ${ms(began)} ms`)
    // One fleet page open: its clients share the server's one etcd watch.
    const events = await fetch(`http://127.0.0.1:${server.port}/v1/fleet/events`, {
      signal: page.signal,
    })
    void events.body?.pipeTo(new WritableStream()).catch(() => undefined)
    const idle = await metrics(etcd)
    const watchers = idle.etcd_debugging_mvcc_watcher_total!
    const streams = idle.etcd_debugging_mvcc_watch_stream_total!
    console.log(
      `watch fan-out: ${watchers} watchers on ${streams} streams (${N} hosts, one fleet page)`,
    )

    let output = ''
    const io = {
      stdout: { write: (text: string) => ((output += text), true) },
      stderr: { write: (text: string) => process.stderr.write(text) },
      stdin: Readable.from([Buffer.from(CHAIN)]),
    }
    began = performance.now()
    const status = await runFleet(['apply', '--all', '-f', '-', '--etcd', etcd.url], io)
    const converged = ms(began)
    console.log(output.split('\n').slice(-2)[0], `(exit ${status})`)
    console.log(`time to converge: ${converged} ms from the command's start to the last host`)
    const applied = delta(await metrics(etcd), idle)
    console.log(
      `fleet apply --all: ${writes(applied)} etcd writes for ${N} hosts, ` +
        `${(writes(applied) / N).toFixed(1)} per host;`,
      applied,
    )

    // One REST change per host, written back to its desired key by its controller.
    const before = await metrics(etcd)
    const from = Number((await client.get('/').exec()).header.revision) + 1
    began = performance.now()
    await Promise.all(
      hosts.map(async (host) => {
        const put = await fetch(`${host.base}/v1/nfvs/1/ports`, {
          method: 'PUT',
          body: JSON.stringify({ action: 'add', port: 'ring:1' }),
        })
        if (put.status !== 204) throw new Error(`${host.name}: ${put.status} ${await put.text()}`)
      }),
    )
    await Promise.all(
      names.map((name) =>
        waitForKey(client, keys.desired(name), (e) => e.value?.includes('ring:1') === true, {
          fromRevision: from,
        }),
      ),
    )
    const written = ms(began)
    // Observed follows within its one-second interval: a second look counts its write too.
    await Promise.all(
      names.map((name) =>
        waitForKey(client, keys.observed(name), (e) => e.value?.includes('ring:1') === true, {
          fromRevision: from,
        }),
      ),
    )
    const change = delta(await metrics(etcd), before)
    const { kvs } = await client.getAll().prefix(keys.hosts).exec()
    const sizes: Record<string, number[]> = {}
    for (const kv of kvs) (sizes[kv.key.toString().split('/').pop()!] ??= []).push(kv.value.length)
    const mean = (list: number[]) => Math.round(list.reduce((a, b) => a + b, 0) / list.length)
    console.log(
      'value sizes (bytes, mean):',
      Object.fromEntries(Object.entries(sizes).map(([name, list]) => [name, mean(list)])),
    )
    console.log(
      `a REST change on each host: in etcd within ${written} ms; ${writes(change)} etcd writes, ` +
        `${(writes(change) / N).toFixed(1)} per change (desired and observed);`,
      change,
    )
  } finally {
    page.abort()
    await Promise.all(hosts.map((host) => host.stop()))
    await server.close()
    client.close()
  }
})
