// A controller whose etcd stops and starts again: the REST API keeps answering, one warn per outage.
import { once } from 'node:events'
import { connect, createServer, type AddressInfo, type Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEtcd } from '../../src/fleet/etcd-client.ts'
import { fleetKeys } from '../../src/fleet/keys.ts'
import { cuttableProxy } from '../helpers/browser.ts'
import { etcdUp, reached, startChildController, type LogLine } from '../helpers/controllers.ts'
import { etcdTest, revisionNow, waitForKey, withEtcd } from '../helpers/etcd.ts'

const SIMS = [{ kind: 'primary' as const }, { kind: 'nfv' as const, clientId: 1 }]
const keys = fleetKeys()
const WARN = 40
const DEBUG = 20

const unreachable = (l: LogLine) => l.level === WARN && l.msg.startsWith('etcd unreachable')

etcdTest(test, 'etcd down: spp_etcd_up 0, the API answers, one warn line per outage', () =>
  withEtcd(async (etcd) => {
    const a = await startChildController(etcd.url, 'a', SIMS, ['--log-level', 'debug'])
    try {
      await a.waitForLog(reached)
      assert.is(await etcdUp(a.base), '1')
      await etcd.stop()
      await a.waitForLog(unreachable)
      assert.is(await etcdUp(a.base), '0')
      const put = await fetch(`${a.base}/v1/nfvs/1/ports`, {
        method: 'PUT',
        body: JSON.stringify({ action: 'add', port: 'ring:0' }),
      })
      assert.is(put.status, 204, await put.text())
      // The link keeps trying (debug lines); the warning is not repeated.
      let tries = 0
      await a.waitForLog(
        (l) => l.level === DEBUG && l.msg === 'etcd still unreachable' && ++tries >= 3,
      )
      await etcd.start()
      await a.waitForLog((l) => l.msg === 'etcd is back')
      assert.is(await etcdUp(a.base), '1')
      assert.is(a.logs.filter(unreachable).length, 1, 'one warn line for the outage')
    } finally {
      await a.stop()
    }
  }),
)

const SIMS2 = [...SIMS, { kind: 'nfv' as const, clientId: 2 }]
const addPort = (base: string, nfv: number, port: string) =>
  fetch(`${base}/v1/nfvs/${nfv}/ports`, {
    method: 'PUT',
    body: JSON.stringify({ action: 'add', port }),
  }).then((r) => r.status)
type Doc = { nfvs: Record<string, { ports: string[] }> }
const portsIn = (value: string | undefined, nfv: number) =>
  value === undefined ? [] : ((JSON.parse(value) as Doc).nfvs[nfv]?.ports ?? [])

etcdTest(test, 'changes made while etcd is down reach it within 5 s of its return', () =>
  withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    const a = await startChildController(etcd.url, 'a', SIMS)
    try {
      await a.waitForLog(reached)
      const from = (await revisionNow(client)) + 1
      await etcd.stop()
      await a.waitForLog(unreachable)
      assert.is(await addPort(a.base, 1, 'ring:0'), 204)
      const remembered = (await (await fetch(`${a.base}/v1/topology/desired`)).json()) as Doc
      assert.ok(remembered.nfvs[1]!.ports.includes('ring:0'), 'remembered locally')
      await etcd.start()
      await waitForKey(client, keys.desired('a'), (e) => portsIn(e.value, 1).includes('ring:0'), {
        fromRevision: from,
        timeoutMs: 5000,
      })
    } finally {
      await a.stop()
      client.close()
    }
  }),
)

etcdTest(test, 'cut off from etcd: its newer revision and the changes made here are merged', () =>
  withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    const proxy = await cuttableProxy(Number(new URL(etcd.url).port))
    const a = await startChildController(`http://127.0.0.1:${proxy.port}`, 'a', SIMS2)
    const desired = (accept: (value: string | undefined) => boolean, fromRevision: number) =>
      waitForKey(client, keys.desired('a'), (e) => accept(e.value), { fromRevision })
    const live = async (nfv: number) =>
      ((await (await fetch(`${a.base}/v1/nfvs/${nfv}`)).json()) as { ports: string[] }).ports
    try {
      await a.waitForLog(reached)
      let from = (await revisionNow(client)) + 1
      assert.is(await addPort(a.base, 1, 'ring:2'), 204)
      const base = await desired((v) => portsIn(v, 1).includes('ring:2'), from)
      const cut = async () => {
        const outages = a.logs.filter(unreachable).length
        proxy.down()
        await a.waitForLog(() => a.logs.filter(unreachable).length > outages)
      }

      // Different processes: nfv 1 changed here, nfv 2 in etcd meanwhile. Both are kept.
      await cut()
      assert.is(await addPort(a.base, 1, 'ring:0'), 204)
      const there = JSON.parse(base.value!) as Doc
      there.nfvs[2] = { ports: ['phy:0', 'phy:1', 'ring:1'] }
      await client.put(keys.desired('a')).value(JSON.stringify(there)).exec()
      from = (await revisionNow(client)) + 1
      proxy.up()
      await desired(
        (v) => portsIn(v, 1).includes('ring:0') && portsIn(v, 2).includes('ring:1'),
        from,
      )
      await a.waitForLog((l) => l.msg === 'restore done' && l.process === 'nfv:2')
      assert.equal(await live(1), ['phy:0', 'phy:1', 'ring:2', 'ring:0'])
      assert.equal(await live(2), ['phy:0', 'phy:1', 'ring:1'])

      // The same process on both sides: etcd's revision is the newer one and wins; the change
      // made here is undone and reported as lost, never dropped silently.
      await cut()
      assert.is(await addPort(a.base, 1, 'ring:3'), 204)
      const newer = { nfvs: { 1: { ports: ['phy:0', 'phy:1'] }, 2: there.nfvs[2] } }
      await client.put(keys.desired('a')).value(JSON.stringify(newer)).exec()
      proxy.up()
      const lost = await a.waitForLog((l) => l.msg.startsWith('local desired changes lost'))
      assert.equal(lost.lost, ['nfvs/1'])
      await a.waitForLog((l) => l.msg === 'restore done' && l.process === 'nfv:1' && l.total === 3)
      assert.equal(await live(1), ['phy:0', 'phy:1'])
      const [kv] = (await client.get(keys.desired('a')).exec()).kvs
      assert.equal(portsIn(kv!.value.toString(), 1), ['phy:0', 'phy:1'])
    } finally {
      await a.stop()
      await proxy.close()
      client.close()
    }
  }),
)

/**
 * A proxy to etcd that takes connections and passes nothing either way until `release()`: an etcd
 * that has not answered yet.
 */
async function heldProxy(targetPort: number) {
  const held: Socket[] = []
  const sockets = new Set<Socket>()
  let released = false
  const pass = (client: Socket) => {
    const upstream = connect(targetPort, '127.0.0.1')
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(a)
      a.pipe(b)
      a.on('error', () => b.destroy())
      a.on('close', () => (sockets.delete(a), b.destroy()))
    }
    client.resume()
  }
  const server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client)
    if (released) pass(client)
    else held.push(client)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as AddressInfo).port,
    release() {
      released = true
      for (const client of held.splice(0)) pass(client)
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}

etcdTest(
  test,
  'a change answered before etcd first answers (the API serves meanwhile) reaches etcd',
  () =>
    withEtcd(async (etcd) => {
      const client = await openEtcd([etcd.url])
      const proxy = await heldProxy(Number(new URL(etcd.url).port))
      const a = await startChildController(`http://127.0.0.1:${proxy.port}`, 'a', SIMS)
      try {
        // etcd has answered nothing yet: the controller's start with it is under way.
        assert.is(await addPort(a.base, 1, 'ring:0'), 204)
        const from = (await revisionNow(client)) + 1
        proxy.release()
        await a.waitForLog(reached)
        const [kv] = (await client.get(keys.desired('a')).exec()).kvs
        if (!portsIn(kv?.value.toString(), 1).includes('ring:0'))
          await waitForKey(
            client,
            keys.desired('a'),
            (e) => portsIn(e.value, 1).includes('ring:0'),
            {
              fromRevision: from,
            },
          )
      } finally {
        await a.stop()
        await proxy.close()
        client.close()
      }
    }),
)

test.run()
