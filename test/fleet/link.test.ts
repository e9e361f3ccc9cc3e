// The fleet link against a real etcd: alive lease, desired watch, conditioned writes, observed.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import type { Etcd3 } from 'etcd3'
import type { Logger } from 'pino'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEtcd } from '../../src/fleet/etcd-client.ts'
import { Alive, decodeValue, fleetKeys, Observed } from '../../src/fleet/keys.ts'
import {
  createFleetLink,
  type DesiredUpdate,
  type FleetLinkOptions,
  type Schedule,
} from '../../src/fleet/link.ts'
import type { DesiredDocument } from '../../src/topology/document.ts'
import { etcdTest, revisionNow, waitForKey, withEtcd, type Etcd } from '../helpers/etcd.ts'
import { cuttableProxy } from '../helpers/browser.ts'
import { captureLogs } from '../helpers/log-capture.ts'

const keys = fleetKeys()
const HOLDER = new URL('../helpers/alive-holder.ts', import.meta.url).pathname
const nfv = (...ports: string[]): DesiredDocument => ({ nfvs: { 1: { ports } } })
const OBSERVED = {
  topology: { primary: {}, nfvs: {}, vfs: {}, mirrors: {} },
  eras: ['18.11' as const],
  processes: ['primary'],
  drift: 0,
}

/** Runs `body` with an etcd, a client of the test's own, and links it closes afterwards. */
function withFleet(
  body: (fleet: {
    etcd: Etcd
    client: Etcd3
    link: (host: string, extra?: Partial<FleetLinkOptions>) => ReturnType<typeof createFleetLink>
  }) => Promise<void>,
) {
  return withEtcd(async (etcd) => {
    const client = await openEtcd([etcd.url])
    const links: Awaited<ReturnType<typeof createFleetLink>>[] = []
    try {
      await body({
        etcd,
        client,
        link: async (host, extra = {}) => {
          const link = await createFleetLink({
            endpoints: [etcd.url],
            host,
            url: `http://${host}.example:7777`,
            version: '0.1.0',
            log: captureLogs().log,
            onDesired: () => undefined,
            ...extra,
          })
          links.push(link)
          return link
        },
      })
    } finally {
      await Promise.all(links.map((link) => link.close()))
      client.close()
    }
  })
}

etcdTest(test, 'a link puts its alive key on a lease, and writes observed as the schema says', () =>
  withFleet(async ({ client, link }) => {
    const from = (await revisionNow(client)) + 1
    const a = await link('a')
    const put = await waitForKey(client, keys.alive('a'), (e) => e.type === 'put', {
      fromRevision: from,
    })
    const alive = decodeValue(Alive, put.value!)
    assert.ok(alive.ok && alive.value.url === 'http://a.example:7777', put.value)
    const [kv] = (await client.get(keys.alive('a')).exec()).kvs
    assert.is.not(kv!.lease, '0', 'bound to a lease')
    a.publishObserved(OBSERVED)
    const observed = await waitForKey(client, keys.observed('a'), (e) => e.type === 'put', {
      fromRevision: from,
    })
    const decoded = decodeValue(Observed, observed.value!)
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.error)
    assert.is(decoded.value.url, 'http://a.example:7777')
    assert.equal(decoded.value.processes, ['primary'])
    // A graceful close revokes the lease: the host is gone at once, its observed stays.
    const closed = waitForKey(client, keys.alive('a'), (e) => e.type === 'delete', {
      fromRevision: observed.revision,
    })
    await a.close()
    await closed
    assert.is((await client.get(keys.observed('a')).exec()).kvs.length, 1)
  }),
)

etcdTest(test, 'the alive key of a host killed with -9 disappears within the TTL', () =>
  withFleet(async ({ etcd, client }) => {
    const from = (await revisionNow(client)) + 1
    const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, etcd.url, 'doomed'], {
      stdio: 'ignore',
    })
    try {
      await waitForKey(client, keys.alive('doomed'), (e) => e.type === 'put', {
        fromRevision: from,
      })
      const killedAt = performance.now()
      const gone = waitForKey(client, keys.alive('doomed'), (e) => e.type === 'delete', {
        fromRevision: from,
        timeoutMs: 15_000,
      })
      child.kill('SIGKILL')
      await gone
      console.log(
        `  alive key gone ${((performance.now() - killedAt) / 1000).toFixed(1)} s after kill -9`,
      )
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL')
        await once(child, 'exit')
      }
    }
  }),
)

etcdTest(
  test,
  'a lease lost behind the host (revoked, or expired in an outage) is granted anew',
  () =>
    withFleet(async ({ client, link }) => {
      const from = (await revisionNow(client)) + 1
      await link('a', { ttlSeconds: 3 })
      const put = await waitForKey(client, keys.alive('a'), (e) => e.type === 'put', {
        fromRevision: from,
      })
      const [kv] = (await client.get(keys.alive('a')).exec()).kvs
      await client.leaseClient.leaseRevoke({ ID: kv!.lease })
      const again = await waitForKey(client, keys.alive('a'), (e) => e.type === 'put', {
        fromRevision: put.revision + 1,
      })
      const [renewed] = (await client.get(keys.alive('a')).exec()).kvs
      assert.is.not(renewed!.lease, kv!.lease, 'a new lease')
      assert.ok(again.revision > put.revision)
    }),
)

etcdTest(
  test,
  'each new desired revision is handed over once, with its revision; not our own',
  () =>
    withFleet(async ({ client, link }) => {
      const updates = inbox<DesiredUpdate>()
      const a = await link('a', { onDesired: updates.push })
      await a.ready
      assert.is(updates.size, 0, 'no desired key yet: nothing to apply')
      const put = await client
        .put(keys.desired('a'))
        .value(JSON.stringify(nfv('phy:0')))
        .exec()
      const first = await updates.next()
      assert.equal(first, {
        document: nfv('phy:0'),
        revision: Number(put.header.revision),
        lost: [],
      })
      assert.equal(a.seen, { document: nfv('phy:0'), revision: Number(put.header.revision) })
      // Written here: in etcd once, conditioned, and never handed back as if someone else wrote it.
      const from = (await revisionNow(client)) + 1
      a.writeDesired(nfv('phy:0', 'ring:0'))
      const written = await waitForKey(client, keys.desired('a'), (e) => e.type === 'put', {
        fromRevision: from,
      })
      assert.equal(JSON.parse(written.value!), nfv('phy:0', 'ring:0'))
      const second = await client
        .put(keys.desired('a'))
        .value(JSON.stringify(nfv('phy:1')))
        .exec()
      assert.equal(await updates.next(), {
        document: nfv('phy:1'),
        revision: Number(second.header.revision),
        lost: [],
      })
      assert.is(updates.size, 0, 'our own write was not handed over')
      // An invalid document is not applied.
      await client.put(keys.desired('a')).value('{"nfvs": {"1": {"ports": ["nowhere"]}}}').exec()
      const third = await client
        .put(keys.desired('a'))
        .value(JSON.stringify(nfv('phy:2')))
        .exec()
      assert.equal((await updates.next()).revision, Number(third.header.revision))
    }),
)

etcdTest(test, 'two writers of one desired key: neither overwrites the other blindly', () =>
  withFleet(async ({ client, link }) => {
    const one = await link('a')
    const two = await link('a')
    await Promise.all([one.ready, two.ready])
    const from = (await revisionNow(client)) + 1
    // Both start from no document; each adds its own process in the same turn: one transaction
    // wins, the other finds the key changed, merges and writes both.
    one.writeDesired({ nfvs: { 1: { ports: ['phy:0'] } } })
    two.writeDesired({ nfvs: { 2: { ports: ['phy:1'] } } })
    const both = await waitForKey(
      client,
      keys.desired('a'),
      (e) => Object.keys((JSON.parse(e.value ?? '{}') as DesiredDocument).nfvs ?? {}).length === 2,
      { fromRevision: from, timeoutMs: 5000 },
    )
    assert.equal(JSON.parse(both.value!), {
      nfvs: { 1: { ports: ['phy:0'] }, 2: { ports: ['phy:1'] } },
    })
    const counts = [one.counts(), two.counts()]
    assert.is(counts[0]!.conflicts! + counts[1]!.conflicts!, 1, JSON.stringify(counts))
  }),
)

/** Timers the test runs when it chooses: `fire()` waits for the next one set, then runs it. */
function manualTimers() {
  const set: (() => void)[] = []
  const waiters: (() => void)[] = []
  const schedule: Schedule = (_ms, run) => {
    set.push(run)
    waiters.shift()?.()
    return () => set.splice(set.indexOf(run) >>> 0, 1)
  }
  return {
    schedule,
    async fire() {
      if (set.length === 0) await new Promise<void>((resolve) => waiters.push(resolve))
      set.shift()!()
    },
  }
}

etcdTest(
  test,
  'observed is written at most once an interval, the latest value, not when unchanged',
  () =>
    withFleet(async ({ client, link }) => {
      const timers = manualTimers()
      const a = await link('a', { schedule: timers.schedule })
      await a.ready
      const from = (await revisionNow(client)) + 1
      const drift = (n: number) => ({ ...OBSERVED, drift: n })
      const written = (n: number) =>
        waitForKey(
          client,
          keys.observed('a'),
          (e) => (JSON.parse(e.value!) as { drift: number }).drift === n,
          { fromRevision: from },
        )
      for (let n = 1; n <= 10; n++) a.publishObserved(drift(n))
      await written(1) // the first at once; the other nine wait for the interval
      await timers.fire()
      await written(10)
      const version = async () =>
        Number((await client.getAll().prefix(keys.observed('a')).exec()).kvs[0]!.version)
      assert.is(await version(), 2, 'the first value at once, the other 9 as one')
      a.publishObserved(drift(10)) // what etcd holds already: not written again
      await timers.fire()
      a.publishObserved(drift(11))
      await timers.fire()
      await written(11)
      assert.is(await version(), 3, 'the unchanged value was not written')
      assert.equal([a.counts().observed, a.counts().observedSkipped], [3, 1])
    }),
)

etcdTest(test, 'with etcd down from the start: created at once, nothing throws, one warn', () =>
  withFleet(async ({ etcd, link }) => {
    await etcd.stop()
    const { log, lines } = captureLogs()
    const ups = inbox<boolean>()
    const a = await link('a', { log, onUp: ups.push, desired: nfv('phy:0') })
    a.writeDesired(nfv('phy:1'))
    a.publishObserved(OBSERVED)
    assert.is(await ups.next(), false)
    assert.not.ok(a.up)
    assert.ok(a.pending)
    assert.equal(
      lines.map((line) => [line.level, line.msg.split(':')[0]]),
      [[40, 'etcd unreachable']],
    )
  }),
)

etcdTest(test, 'a write etcd refuses (too large) is an error of that write, not an outage', () =>
  withFleet(async ({ client, link }) => {
    const { log, lines } = captureLogs()
    const errors = inbox<void>()
    const a = await link('a', { log: hookedError(log, errors.push) })
    await a.ready
    assert.ok(a.up)
    // Over etcd's 1.5 MiB request limit: 2000 nfvs of 120 ports each.
    const ports = Array.from({ length: 120 }, (_, i) => `ring:${i}`)
    const huge = {
      nfvs: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [i, { ports }])),
    }
    a.writeDesired(huge)
    await errors.next()
    assert.ok(a.up, 'etcd is still up')
    assert.equal(
      lines.filter((line) => line.level === 40),
      [],
      'no outage warned',
    )
    const from = (await revisionNow(client)) + 1
    a.writeDesired(nfv('phy:0'))
    const written = await waitForKey(client, keys.desired('a'), (e) => e.type === 'put', {
      fromRevision: from,
      timeoutMs: 5000,
    })
    assert.equal(JSON.parse(written.value!), nfv('phy:0'))
  }),
)

etcdTest(test, 'etcd stopped: changes are kept, one warn; back: written within 5 s, one info', () =>
  withFleet(async ({ etcd, client, link }) => {
    const { log, lines } = captureLogs('debug')
    const retries = inbox<void>()
    const ups = inbox<boolean>()
    const a = await link('a', {
      log: hooked(log, 'etcd still unreachable', retries.push),
      onUp: ups.push,
    })
    await a.ready
    assert.is(await ups.next(), true)
    const from = (await revisionNow(client)) + 1
    await etcd.stop()
    assert.is(await ups.next(), false)
    assert.not.ok(a.up)
    // Several calls fail while it is down (writes, observed, keep-alives, watch retries).
    a.writeDesired(nfv('phy:0'))
    a.publishObserved(OBSERVED)
    a.writeDesired(nfv('phy:0', 'ring:0'))
    assert.ok(a.pending, 'kept to be written')
    for (let i = 0; i < 3; i++) await retries.next() // the watch tried again, and failed, 3 times
    await etcd.start()
    const back = performance.now()
    const written = await waitForKey(client, keys.desired('a'), (e) => e.type === 'put', {
      fromRevision: from,
      timeoutMs: 5000,
    })
    console.log(
      `  pending desired written ${Math.round(performance.now() - back)} ms after etcd's return`,
    )
    assert.equal(JSON.parse(written.value!), nfv('phy:0', 'ring:0'), 'the latest, once')
    assert.is(await ups.next(), true)
    const said = (level: number) => lines.filter((line) => line.level === level).map((l) => l.msg)
    assert.is(said(40).length, 1, `one warn per outage: ${said(40).join(' | ')}`)
    assert.match(said(40)[0]!, /etcd unreachable/)
    assert.equal(said(30), ['etcd is back'])
    const history = await client.get(keys.desired('a')).exec()
    assert.is(history.kvs[0]!.version, '1', 'one write for the outage, not one per change')
  }),
)

etcdTest(
  test,
  'a host cut off from etcd while both sides changed: merged on its return, the loss reported',
  () =>
    withFleet(async ({ etcd, client, link }) => {
      const proxy = await cuttableProxy(Number(new URL(etcd.url).port))
      try {
        const { log, lines } = captureLogs()
        const updates = inbox<DesiredUpdate>()
        const ups = inbox<boolean>()
        const base: DesiredDocument = { nfvs: { 1: { ports: ['phy:0'] }, 2: { ports: ['phy:0'] } } }
        await client.put(keys.desired('a')).value(JSON.stringify(base)).exec()
        const a = await link('a', {
          endpoints: [`http://127.0.0.1:${proxy.port}`],
          log,
          onDesired: updates.push,
          onUp: ups.push,
        })
        assert.equal((await updates.next()).document, base)
        assert.is(await ups.next(), true)
        proxy.down()
        assert.is(await ups.next(), false)
        // Here: nfv 1 changed, nfv 3 added. Meanwhile in etcd: nfv 1 and nfv 2 changed.
        a.writeDesired({
          nfvs: { ...base.nfvs, 1: { ports: ['ring:9'] }, 3: { ports: ['phy:1'] } },
        })
        const there = { nfvs: { 1: { ports: ['ring:1'] }, 2: { ports: ['ring:2'] } } }
        const put = await client.put(keys.desired('a')).value(JSON.stringify(there)).exec()
        proxy.up()
        const merged = {
          nfvs: { 1: { ports: ['ring:1'] }, 2: { ports: ['ring:2'] }, 3: { ports: ['phy:1'] } },
        }
        const update = await updates.next()
        assert.equal(update, {
          document: merged,
          revision: Number(put.header.revision),
          lost: ['nfvs/1'],
        })
        const written = await waitForKey(client, keys.desired('a'), (e) => e.type === 'put', {
          fromRevision: Number(put.header.revision) + 1,
          timeoutMs: 5000,
        })
        assert.equal(JSON.parse(written.value!), merged)
        const lost = lines.find((line) => line.msg.includes('lost'))
        assert.equal(lost?.lost, ['nfvs/1'])
      } finally {
        await proxy.close()
      }
    }),
)

/** A logger that also calls `seen` for each line of message `msg`. */
function hooked(log: Logger, msg: string, seen: () => void): Logger {
  const debug = log.debug.bind(log)
  return Object.assign(Object.create(log) as Logger, {
    debug: (object: object, message: string) => {
      if (message === msg) seen()
      debug(object, message)
    },
  })
}

/** A logger that also calls `seen` for each error line. */
function hookedError(log: Logger, seen: () => void): Logger {
  const error = log.error.bind(log)
  return Object.assign(Object.create(log) as Logger, {
    error: (object: object, message: string) => {
      seen()
      error(object, message)
    },
  })
}

/** What a callback pushed, awaited one at a time (a guard rejects after 10 s). */
function inbox<T>() {
  const items: T[] = []
  const waiting: ((item: T) => void)[] = []
  return {
    push: (item: T) => {
      const resolve = waiting.shift()
      if (resolve) resolve(item)
      else items.push(item)
    },
    next: () =>
      new Promise<T>((resolve, reject) => {
        if (items.length > 0) return resolve(items.shift()!)
        const timer = setTimeout(() => reject(new Error('nothing arrived within 10 s')), 10_000)
        waiting.push((item) => {
          clearTimeout(timer)
          resolve(item)
        })
      }),
    get size() {
      return items.length
    },
  }
}

test.run()
