import { once } from 'node:events'
import { connect } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, registrations, withHarness, type Harness } from '../helpers/harness.ts'
import { captureLogs } from '../helpers/log-capture.ts'

const handshakes = (h: Harness) =>
  h.sims.reduce((n, sim) => n + sim.received.filter((l) => l === '_get_client_id').length, 0)
/** Resolves once `condition` holds, looking again after each turn of the event loop. */
async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve))
}
/** Commands waiting behind the one in flight (every caller holds one in flight). */
const queued = (h: Harness, clientId: number) =>
  h.controller.registry.find({ kind: 'nfv', clientId }).describe().queueDepth - 1
const eventsOf = (h: Harness, type: string) =>
  h.controller.hub.since(0).events.filter((e) => e.type === type)

test('two live processes claiming one client id do not flap: one is served, the other waits', async () => {
  const { log, lines } = captureLogs('warn')
  await withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const [first] = h.sims
      const conflict = once(h.controller.registry, 'conflict')
      const [second] = await h.spawn([{ kind: 'nfv', clientId: 1 }]) // reconnects at once if dropped
      await conflict
      for (let i = 0; i < 40; i++) {
        const r = await h.api('PUT', '/v1/nfvs/1/forward', { action: i % 2 ? 'stop' : 'start' })
        assert.is(r.status, 204, `request ${i}: ${r.text}`)
      }
      assert.is(handshakes(h), 2, 'each claimant identified once, nothing dropped')
      assert.is(commandsOf(second!).length, 0, 'the claimant is sent nothing while it waits')
      assert.is(commandsOf(first!).filter((l) => l !== 'status').length, 40)
      assert.is(eventsOf(h, 'process.conflict').length, 1)
      assert.is(eventsOf(h, 'process.replaced').length, 0)
      const warn = lines.find((l) => /claimed by a second live connection/.test(l.msg))
      assert.ok(warn, 'a warn line names the conflict')
      assert.is(warn.process, 'nfv:1')
      assert.type(warn.served, 'string')
      assert.type(warn.claimant, 'string')
      assert.is.not(warn.served, warn.claimant)
      const metrics = (await h.api('GET', '/metrics')).text
      assert.match(metrics, /spp_process_id_conflicts_total\{kind="nfv"\} 1/)

      // The served one goes away: the one that waited is served, with no new handshake.
      const promoted = registrations(h.controller, 1)
      first!.stop()
      await promoted
      assert.is((await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })).status, 204)
      assert.equal(commandsOf(second!), ['forward'])
      assert.is(handshakes(h), 2)
    },
    { log, sim: { reconnect: true } },
  )
})

test('a restarted process (its old connection closed) takes over its id at once, no conflict', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const removed = once(h.controller.registry, 'removed')
    h.sim('nfv 1').stop()
    await removed
    const [fresh] = await h.connect([{ kind: 'nfv', clientId: 1 }])
    assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
    assert.equal(commandsOf(fresh!), ['status'])
    assert.is(eventsOf(h, 'process.conflict').length, 0)
  }))

test('a request queued while a late reply is awaited is sent on the connection after the reset', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const sim = h.sim('nfv 1')
      sim.faults = { silentAt: 1 } // never answers the first command of this connection
      const first = await h.api('GET', '/v1/nfvs/1')
      assert.is(first.status, 500)
      sim.faults = {}
      // The controller now waits one more timeout for the late reply, then resets the channel.
      const back = registrations(h.controller, 1)
      const queued = h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
      await back
      const r = await queued
      assert.is(r.status, 204, r.text)
      assert.equal(sim.received, ['_get_client_id', 'status', '_get_client_id', 'forward'])
    },
    { commandTimeoutMs: 400, sim: { reconnect: true } },
  ))

test('unsent commands fail with 503 when the process does not come back in time', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const sim = h.sim('nfv 1')
      sim.faults = { silentAt: 1 }
      assert.is((await h.api('GET', '/v1/nfvs/1')).status, 500)
      sim.options.reconnect = false
      const r = await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
      assert.is(r.status, 503)
      assert.match(r.type!, /^text\/plain/)
      assert.match(r.text, /^not sent: nfv:1 disconnected and did not come back within 300 ms/)
      assert.equal(commandsOf(sim), ['status'])
    },
    { commandTimeoutMs: 300, sim: { reconnect: true } },
  ))

test('a process that reconnects while a request body is being read is the one served', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const body = '{"action": "start"}'
      const client = connect({ host: '127.0.0.1', port: h.controller.apiPort })
      await once(client, 'connect')
      client.write(
        `PUT /v1/nfvs/1/forward HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
      )
      await once(h.controller.httpServer, 'request') // the handler has found nfv 1, and reads on
      // The process drops its connection and reconnects meanwhile.
      const back = registrations(h.controller, 1)
      h.controller.registry.find({ kind: 'nfv', clientId: 1 }).close('test')
      await back
      let answer = ''
      client.on('data', (chunk: Buffer) => (answer += chunk.toString()))
      const closed = once(client, 'close')
      client.write(body.slice(5))
      await closed
      assert.match(answer, /^HTTP\/1\.1 204 /, answer)
      assert.equal(h.sim('nfv 1').received.slice(-1), ['forward'])
    },
    { sim: { reconnect: true } },
  ))

test('past --max-queue a request is a 503 with Retry-After, naming the process; nothing is sent', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const sim = h.sim('nfv 1')
      const release = sim.hold()
      const inFlight = h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
      await once(sim, 'command')
      const waiting = [1, 2].map(() => h.api('PUT', '/v1/nfvs/1/forward', { action: 'stop' }))
      await until(() => queued(h, 1) === 2)
      const refused = await h.api('DELETE', '/v1/nfvs/1/patches')
      assert.is(refused.status, 503, refused.text)
      assert.is(refused.headers.get('retry-after'), '1')
      assert.match(refused.type!, /^text\/plain/)
      assert.is(refused.text, 'nfv:1 has 2 commands waiting: try again later\n')
      release()
      for (const r of [await inFlight, ...(await Promise.all(waiting))]) assert.is(r.status, 204)
      assert.equal(commandsOf(sim), ['forward', 'stop', 'stop'])
    },
    { maxQueue: 2 },
  ))

test('a request whose client disconnects before its command is written is never sent', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const sim = h.sim('nfv 1')
    const release = sim.hold()
    const inFlight = h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
    await once(sim, 'command')
    const body = '{"action": "stop"}'
    const client = connect({ host: '127.0.0.1', port: h.controller.apiPort })
    await once(client, 'connect')
    client.write(
      `PUT /v1/nfvs/1/forward HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    )
    await until(() => queued(h, 1) === 1)
    client.destroy()
    await once(client, 'close')
    await new Promise((resolve) => setImmediate(resolve))
    release()
    assert.is((await inFlight).status, 204)
    assert.is((await h.api('DELETE', '/v1/nfvs/1/patches')).status, 204)
    assert.equal(commandsOf(sim), ['forward', 'patch reset'])
  }))

test('a component on the main lcore, or a second classifier on a core, is refused and never sent', () =>
  withHarness([{ kind: 'vf', clientId: 2 }], async (h) => {
    const sim = h.sim('vf 2')
    const main = await h.api('POST', '/v1/vfs/2/components', {
      name: 'fw1',
      core: 1,
      type: 'forward',
    })
    assert.is(main.status, 400)
    assert.match(main.type!, /^text\/plain/)
    assert.match(
      main.text,
      /^invalid key\(core\): 1 \(not a worker lcore of this vf: its worker lcores are 2, 3, 4, 5/,
    )
    assert.equal(commandsOf(sim), ['status'], 'the cores were read first; nothing else was sent')
    const cls = { name: 'cls', core: 2, type: 'classifier_mac' }
    assert.is((await h.api('POST', '/v1/vfs/2/components', cls)).status, 204)
    const second = await h.api('POST', '/v1/vfs/2/components', { ...cls, name: 'cls2' })
    assert.is(second.status, 400)
    assert.match(second.text, /^invalid key\(core\): 2 \(already runs a classifier_mac/)
    assert.equal(commandsOf(sim), ['status', 'component start cls 2 classifier_mac'])
    assert.is((await h.api('GET', '/v1/vfs/2')).status, 200, 'the vf still answers')
  }))

test('a fault while handling a process event drops that connection only; the controller goes on', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'nfv', clientId: 2 },
    ],
    async (h) => {
      const { hub } = h.controller
      const publish = hub.publish.bind(hub)
      hub.publish = (type, data) => {
        if (type === 'patch.set') throw new Error('a bug in a listener')
        publish(type, data)
      }
      const back = registrations(h.controller, 1)
      const r = await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'phy:1' })
      assert.is(r.status, 204, 'the request itself was answered')
      await back // nfv 1 was dropped and came back
      hub.publish = publish
      assert.is((await h.api('GET', '/v1/nfvs/2')).status, 200)
      assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
    },
    { sim: { reconnect: true } },
  ))

test('an accept error on a process port after start is logged; processes still connect', async () => {
  const { log, lines } = captureLogs('error')
  await withHarness(
    [],
    async (h) => {
      const emfile = Object.assign(new Error('accept EMFILE'), {
        code: 'EMFILE',
        syscall: 'accept',
      })
      for (const server of h.controller.processServers) server.emit('error', emfile)
      await h.connect([{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }])
      assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
      assert.is(lines.filter((l) => l.msg === 'process listener error').length, 2)
    },
    { log },
  )
})

test('--nfv-status wire answers in the process words (running/idling), in the nfv and the topology', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const status = async () =>
        ((await h.api('GET', '/v1/nfvs/1')).json() as { status: string }).status
      assert.is(await status(), 'idling')
      await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
      assert.is(await status(), 'running')
      const topology = (await h.api('GET', '/v1/topology')).json() as {
        nfvs: Record<string, { status: string }>
      }
      assert.is(topology.nfvs['1']!.status, 'running')
    },
    { nfvStatus: 'wire' },
  ))

test.run()
