// Two writers on one host's desired state, `fleet apply` and a REST change: neither is lost
// silently. Either both apply (the controller merges its change into etcd's newer revision), or the
// one that read an older revision gets a conflict.
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import type { Etcd3 } from 'etcd3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEtcd } from '../../src/fleet/etcd-client.ts'
import { fleetKeys } from '../../src/fleet/keys.ts'
import { startChildController, type ChildController } from '../helpers/controllers.ts'
import {
  etcdTest,
  historyOf,
  revisionNow,
  waitForKey,
  withEtcd,
  type Etcd,
} from '../helpers/etcd.ts'
import { fleetCli } from '../helpers/fleet-cli.ts'

const keys = fleetKeys()
const SIM = new URL('../../src/spp-sim.ts', import.meta.url).pathname
const CHANGE_AND_WAIT = new URL('../helpers/change-and-wait.ts', import.meta.url).pathname
type Doc = { nfvs: Record<string, { ports: string[] }> }
const portsIn = (value: string | undefined, nfv: number) =>
  value === undefined ? [] : ((JSON.parse(value) as Doc).nfvs[nfv]?.ports ?? [])
const ADD_RING_0 = JSON.stringify({ action: 'add', port: 'ring:0' })
// The fleet's document: nfv 1 as it was, nfv 2 with ring:1.
const FLEET_DOC = `nfvs:
  "1": { ports: [phy:0, phy:1, ring:2], status: Idle, patches: [] }
  "2": { ports: [phy:0, phy:1, ring:1] }
`

type Fleet = { etcd: Etcd; client: Etcd3; a: ChildController }
/**
 * Host a with a primary, nfv 1 and nfv 2, its desired key written once (nfv 1 with ring:2, by a
 * REST change). The processes are simulated in a process of their own, so that they answer while
 * this one is blocked in execFileSync.
 */
const withHost = (body: (fleet: Fleet) => Promise<void>) =>
  withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    const a = await startChildController(etcd.url, 'a')
    const sims = spawn(
      process.execPath,
      [
        ...['--import', 'tsx', SIM, '--primary', '--nfv', '1', '--nfv', '2'],
        ...['-p', String(a.primaryPort), '-s', String(a.secondaryPort)],
      ],
      { stdio: 'ignore' },
    )
    try {
      await a.waitForLog((l) => l.msg.startsWith('etcd reached'))
      const identified = () => a.logs.filter((l) => l.msg === 'process identified').length
      await a.waitForLog(() => identified() === 3)
      const from = (await revisionNow(client)) + 1
      await fetch(`${a.base}/v1/nfvs/1/ports`, {
        method: 'PUT',
        body: JSON.stringify({ action: 'add', port: 'ring:2' }),
      })
      await waitForKey(client, keys.desired('a'), (e) => portsIn(e.value, 1).includes('ring:2'), {
        fromRevision: from,
      })
      // observed carries nfv 2 as read: fleet apply plans against it.
      await waitForKey(client, keys.observed('a'), (e) => e.value?.includes('ring:2') === true, {
        fromRevision: from,
      })
      await body({ etcd, client, a })
    } finally {
      const exited = sims.exitCode !== null || sims.signalCode !== null
      sims.kill()
      if (!exited) await once(sims, 'exit') // one that died at start must not hang the test
      await a.stop()
      client.close()
    }
  })
const live = async (a: ChildController, nfv: number) =>
  ((await (await fetch(`${a.base}/v1/nfvs/${nfv}`)).json()) as { ports: string[] }).ports
const desiredNow = async (client: Etcd3) =>
  (await client.get(keys.desired('a')).exec()).kvs[0]!.value.toString()

etcdTest(
  test,
  'the REST change lands between the read and the write of fleet apply: conflict',
  () =>
    withHost(async ({ etcd, client, a }) => {
      let acted = false
      const before = await revisionNow(client)
      const applied = await fleetCli(etcd.url, ['apply', 'a', '-f', '-'], {
        stdin: FLEET_DOC,
        // The plan is printed after the read, before the write: the change is made and written back.
        onOutput(text) {
          if (acted || !text.includes('Steps')) return
          acted = true
          execFileSync(process.execPath, [
            ...['--import', 'tsx', CHANGE_AND_WAIT, a.base, etcd.url, keys.desired('a')],
            ...[String(before), 'PUT', '/v1/nfvs/1/ports', ADD_RING_0],
          ])
        },
      })
      assert.ok(acted)
      assert.is(applied.code, 3, applied.stdout + applied.stderr)
      assert.match(applied.stderr, /conflict: the desired document of a changed since it was read/)
      assert.ok(portsIn(await desiredNow(client), 1).includes('ring:0'), 'the REST change is kept')
      assert.equal(portsIn(await desiredNow(client), 2), [], 'the fleet document was not written')
      assert.ok((await live(a, 1)).includes('ring:0'))
      assert.not.ok((await live(a, 2)).includes('ring:1'))
    }),
)

/** Resolves once etcd's desired document and the live processes hold both changes. */
async function bothApplied(client: Etcd3, a: ChildController, from: number) {
  await waitForKey(
    client,
    keys.desired('a'),
    (e) => portsIn(e.value, 1).includes('ring:0') && portsIn(e.value, 2).includes('ring:1'),
    { fromRevision: from },
  )
  await a.waitForLog((l) => l.msg === 'restore done' && l.process === 'nfv:2')
  assert.ok((await live(a, 1)).includes('ring:0'))
  assert.ok((await live(a, 2)).includes('ring:1'))
}

etcdTest(test, 'the REST change comes after the write of fleet apply: both apply, merged', () =>
  withHost(async ({ etcd, client, a }) => {
    const from = (await revisionNow(client)) + 1
    let change: Promise<number> | undefined
    const applied = await fleetCli(etcd.url, ['apply', 'a', '-f', '-'], {
      stdin: FLEET_DOC,
      onOutput(text) {
        if (change || !text.includes('Applying')) return
        change = fetch(`${a.base}/v1/nfvs/1/ports`, { method: 'PUT', body: ADD_RING_0 }).then(
          (r) => r.status,
        )
      },
    })
    assert.is(applied.code, 0, applied.stdout + applied.stderr)
    assert.is(await change, 204)
    await bothApplied(client, a, from)
  }),
)

// Started together, either may reach etcd first. The REST change written back before fleet apply
// reads: fleet apply's document, which sets nfv 1 without ring:0, is the later and informed write
// (its read saw ring:0) and replaces it, as any apply of a whole document does. Written back after
// fleet apply read: a conflict if it lands before fleet apply's write, merged if after.
etcdTest(
  test,
  'both at once: both apply, or fleet apply gets a conflict and the change stays',
  () =>
    withHost(async ({ etcd, client, a }) => {
      const from = (await revisionNow(client)) + 1
      const [applied, changed] = await Promise.all([
        fleetCli(etcd.url, ['apply', 'a', '-f', '-'], { stdin: FLEET_DOC }),
        fetch(`${a.base}/v1/nfvs/1/ports`, { method: 'PUT', body: ADD_RING_0 }).then(
          (r) => r.status,
        ),
      ])
      assert.is(changed, 204)
      if (applied.code === 3) {
        await waitForKey(client, keys.desired('a'), (e) => portsIn(e.value, 1).includes('ring:0'), {
          fromRevision: from,
        })
        assert.equal(portsIn(await desiredNow(client), 2), [], 'the fleet document was not written')
        assert.ok((await live(a, 1)).includes('ring:0'))
        return
      }
      assert.is(applied.code, 0, applied.stdout + applied.stderr)
      // fleet apply's write is the first with nfv 2's ring:1; was ring:0 in etcd before it?
      const history = await historyOf(client, keys.desired('a'), from)
      const fleet = history.findIndex((e) => portsIn(e.value, 2).includes('ring:1'))
      assert.ok(fleet >= 0, JSON.stringify(history))
      if (history.slice(0, fleet).some((e) => portsIn(e.value, 1).includes('ring:0'))) {
        // fleet apply converged before it exited: to its own document.
        assert.equal(portsIn(await desiredNow(client), 1), ['phy:0', 'phy:1', 'ring:2'])
        assert.equal(await live(a, 1), ['phy:0', 'phy:1', 'ring:2'])
        assert.ok((await live(a, 2)).includes('ring:1'))
      } else await bothApplied(client, a, from)
    }),
)

test.run()
