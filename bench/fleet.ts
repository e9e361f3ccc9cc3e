// npm run bench:fleet [-- N]: N hosts on one etcd, `fleet apply --all`, and what it cost etcd.
// The hosts are fake ones (test/helpers/fake-host.ts: a real fleet link, a pretend nfv) until the
// controller is wired to the link; etcd's own /metrics counts the requests and watch events.
import { Readable } from 'node:stream'
import { runFleet } from '../src/fleet/cli.ts'
import { openEtcd } from '../src/fleet/etcd-client.ts'
import { fleetKeys } from '../src/fleet/keys.ts'
import { startFleetServer } from '../src/fleet/serve.ts'
import { revisionNow, waitForKey, withEtcd, type Etcd } from '../test/helpers/etcd.ts'
import { startFakeHosts, type FakeHost } from '../test/helpers/fake-host.ts'

const N = Number(process.argv[2] ?? 10)
const CHAIN = 'nfvs: { "1": { ports: [phy:0, phy:1, ring:0], status: Running } }\n'
const METRICS = [
  'etcd_mvcc_put_total',
  'etcd_mvcc_txn_total',
  'etcd_mvcc_range_total',
  'etcd_mvcc_delete_total',
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
  Object.fromEntries(METRICS.map((m) => [m, after[m]! - before[m]!]))

await withEtcd(async (etcd) => {
  const keys = fleetKeys()
  const client = await openEtcd([etcd.url])
  const hosts: FakeHost[] = []
  const server = await startFleetServer({ endpoints: [etcd.url], keys, host: '127.0.0.1', port: 0 })
  const page = new AbortController()
  try {
    let began = performance.now()
    hosts.push(
      ...(await startFakeHosts(
        etcd.url,
        client,
        Array.from({ length: N }, (_, i) => `h${i}`),
      )),
    )
    console.log(
      `${N} hosts alive with observed written in ${Math.round(performance.now() - began)} ms`,
    )
    const events = await fetch(`http://127.0.0.1:${server.port}/v1/fleet/events`, {
      signal: page.signal,
    })
    // One page open: SSE clients share the server's one etcd watch, so they add no etcd watcher.
    void events.body?.pipeTo(new WritableStream()).catch(() => undefined)
    const idle = await metrics(etcd)
    console.log(
      'watchers:',
      idle.etcd_debugging_mvcc_watcher_total,
      'watch streams:',
      idle.etcd_debugging_mvcc_watch_stream_total,
    )

    let output = ''
    const io = {
      stdout: { write: (text: string) => ((output += text), true) },
      stderr: { write: (text: string) => process.stderr.write(text) },
      stdin: Readable.from([Buffer.from(CHAIN)]),
    }
    began = performance.now()
    const status = await runFleet(['apply', '--all', '-f', '-', '--etcd', etcd.url], io)
    const ms = performance.now() - began
    console.log(
      output.split('\n').slice(-2)[0],
      `(exit ${status}; ${Math.round(ms)} ms from start to the last host converged)`,
    )
    const applied = await metrics(etcd)
    console.log('fleet apply --all, etcd requests and watch events:', delta(applied, idle))

    // One local change per host (a REST change written back): what it costs etcd.
    const from = (await revisionNow(client)) + 1
    const before = await metrics(etcd)
    for (const host of hosts)
      host.link.writeDesired({
        nfvs: { 1: { ports: ['phy:0', 'phy:1', 'ring:1'], status: 'Running' } },
      })
    await Promise.all(
      hosts.map((h) =>
        waitForKey(client, keys.desired(h.name), (e) => e.value!.includes('ring:1'), {
          fromRevision: from,
        }),
      ),
    )
    const written = delta(await metrics(etcd), before)
    console.log(`a local change on each of ${N} hosts:`, written)
  } finally {
    page.abort()
    await Promise.all(hosts.map((host) => host.close()))
    await server.close()
    client.close()
  }
})
