// Every 2020 route and every shared route through the controller to the real 2020 simulator.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SimSpec } from '../../src/sim/start-sims.ts'
import { commandsOf, registrations, withHarness, type Harness } from '../helpers/harness.ts'

const ALL: SimSpec[] = [
  { kind: 'primary', phyQueues: [2, 1] },
  { kind: 'nfv', clientId: 1, phyQueues: [2, 1] },
  { kind: 'vf', clientId: 2, phyQueues: [2, 1] },
  { kind: 'mirror', clientId: 3 },
  { kind: 'pcap', clientId: 4 },
]
const era2020 = { sim: { era: '2020' as const } }

/** Sends a request that must succeed with `status` and returns its JSON body, if any. */
async function ok(h: Harness, method: string, path: string, body?: unknown, status = 204) {
  const r = await h.api(method, path, body)
  assert.is(r.status, status, `${method} ${path} ${JSON.stringify(body)}: ${r.text}`)
  return r.text === '' ? undefined : r.json()
}
/** A GET body, read as the shape the test looks at. */
const get = <T = unknown>(h: Harness, path: string) =>
  ok(h, 'GET', path, undefined, 200) as Promise<T>

type Flow = { actions: unknown; patterns: { spec: { dst: string } }[] }
type Primary = {
  'master-lcore': number
  lcores: number[]
  forwarder: unknown
  phy_ports: { nof_queues: unknown; flow: Flow[] }[]
  pipes: unknown
}
type Nfv = { status: string; ports: string[]; patches: unknown }
type Vf = { 'master-lcore': number; components: unknown[]; classifier_table: unknown }
type Pcap = { status: string; core: { filename?: string }[] }
type Topology = { pcaps: unknown; nfvs: object; primary: { 'master-lcore': number } }

test('primary: ports, pipes, memif, patches, forwarder and flow rules, each seen by a GET', () =>
  withHarness(
    ALL,
    async (h) => {
      const status = () => get<Primary>(h, '/v1/primary/status')
      const before = await status()
      assert.equal([before['master-lcore'], before.lcores], [0, [0, 1]])
      assert.equal(before.forwarder, { status: 'idling', ports: ['phy:0', 'phy:1'], patches: [] })
      assert.equal(before.phy_ports[0]!.nof_queues, { rx: 2, tx: 2 })
      await ok(h, 'PUT', '/v1/primary/ports', { action: 'add', port: 'ring:1' })
      const pipe = { action: 'add', port: 'pipe:0', rx: 'ring:0', tx: 'ring:1' }
      await ok(h, 'PUT', '/v1/primary/ports', pipe)
      await ok(h, 'PUT', '/v1/primary/ports', { action: 'add', port: 'memif:0' })
      await ok(h, 'PUT', '/v1/primary/patches', { src: 'phy:0nq1', dst: 'ring:1' })
      await ok(h, 'PUT', '/v1/primary/forward', { action: 'start' })
      const after = await status()
      assert.equal(after.forwarder, {
        status: 'running',
        ports: ['phy:0', 'phy:1', 'ring:1', 'pipe:0', 'memif:0'],
        patches: [{ src: 'phy:0', dst: 'ring:1' }], // §4.2: forwarder entries name no queue
      })
      assert.equal(after.pipes, [{ id: 0, rx: 0, tx: 1 }])
      await ok(h, 'PUT', '/v1/primary/forward', { action: 'stop' })
      await ok(h, 'DELETE', '/v1/primary/patches')
      await ok(h, 'PUT', '/v1/primary/ports', { action: 'del', port: 'memif:0' })
      await ok(h, 'PUT', '/v1/primary/ports', { action: 'del', port: 'pipe:0' })
      assert.equal((await status()).forwarder, {
        status: 'idling',
        ports: ['phy:0', 'phy:1', 'ring:1'],
        patches: [],
      })
      assert.equal((await status()).pipes, [])

      const rule = { direction: 'ingress', pattern: ['eth dst is 11:22:33:44:55:66'] }
      const create = { rule: { ...rule, actions: ['queue index 1'] } }
      const check = { rule: { direction: 'ingress', pattern: ['eth'], actions: ['queue index 1'] } }
      const checked = await ok(h, 'POST', '/v1/primary/flow_rules/port_id/0/validate', check, 200)
      assert.equal(checked, { result: 'success', message: 'Flow rule validated' })
      const made = await ok(h, 'POST', '/v1/primary/flow_rules/port_id/0', create, 200)
      assert.equal(made, { result: 'success', message: 'Flow rule #0 created', rule_id: '0' })
      const flows = (await status()).phy_ports[0]!.flow
      assert.is(flows.length, 1)
      assert.equal(flows[0]!.actions, [{ type: 'queue', conf: { index: 1 } }])
      assert.is(flows[0]!.patterns[0]!.spec.dst, '11:22:33:44:55:66')
      const gone = await ok(h, 'DELETE', '/v1/primary/flow_rules/0/port_id/0', undefined, 200)
      assert.equal(gone, { result: 'success', message: 'Flow rule #0 destroyed' })
      await ok(h, 'POST', '/v1/primary/flow_rules/port_id/1', create, 200)
      await ok(h, 'DELETE', '/v1/primary/flow_rules/port_id/1', undefined, 200)
      assert.equal(
        (await status()).phy_ports.map((p) => p.flow),
        [[], []],
      )
      assert.equal(h.sim('primary').crashes, [])
    },
    era2020,
  ))

test('nfv: ports, a queue of a phy port, memif, patches and forward, each seen by a GET', () =>
  withHarness(
    ALL,
    async (h) => {
      const nfv = () => get<Nfv>(h, '/v1/nfvs/1')
      assert.equal(await nfv(), {
        'client-id': 1,
        status: 'Idle',
        'master-lcore': 1,
        lcores: [1, 2],
        ports: ['phy:0 nq 0', 'phy:0 nq 1', 'phy:1'],
        patches: [],
      })
      await ok(h, 'PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
      await ok(h, 'PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'memif:0' })
      await ok(h, 'PUT', '/v1/nfvs/1/patches', { src: 'phy:0nq1', dst: 'ring:0' })
      await ok(h, 'PUT', '/v1/nfvs/1/forward', { action: 'start' })
      const running = await nfv()
      assert.is(running.status, 'Running')
      assert.equal(running.ports, ['phy:0 nq 0', 'phy:0 nq 1', 'phy:1', 'ring:0', 'memif:0'])
      assert.equal(running.patches, [{ src: 'phy:0 nq 1', dst: 'ring:0' }])
      await ok(h, 'PUT', '/v1/nfvs/1/forward', { action: 'stop' })
      await ok(h, 'DELETE', '/v1/nfvs/1/patches')
      await ok(h, 'PUT', '/v1/nfvs/1/ports', { action: 'del', port: 'memif:0' })
      const stopped = await nfv()
      assert.equal([stopped.status, stopped.patches], ['Idle', []])
      assert.equal(stopped.ports, ['phy:0 nq 0', 'phy:0 nq 1', 'phy:1', 'ring:0'])
      assert.equal(h.sim('nfv 1').crashes, [])
    },
    era2020,
  ))

test('vf and mirror: the classifier word, a queue of a phy port, the table; DELETE makes them exit', () =>
  withHarness(
    ALL,
    async (h) => {
      // The request's 18.11 word reaches a 2020 vf in its own word.
      await ok(h, 'POST', '/v1/vfs/2/components', { name: 'cls1', core: 2, type: 'classifier_mac' })
      const port = (p: string, dir: string) => ({ action: 'attach', port: p, dir })
      await ok(h, 'PUT', '/v1/vfs/2/components/cls1/ports', port('phy:0nq1', 'rx'))
      await ok(h, 'PUT', '/v1/vfs/2/components/cls1/ports', port('ring:0', 'tx'))
      const entry = { type: 'mac', mac_address: '11:22:33:44:55:66', port: 'ring:0' }
      await ok(h, 'PUT', '/v1/vfs/2/classifier_table', { action: 'add', ...entry })
      assert.ok(commandsOf(h.sim('vf 2')).includes('component start cls1 2 classifier'))
      const vf = await get<Vf>(h, '/v1/vfs/2')
      assert.is(vf['master-lcore'], 1)
      const none = { operation: 'none', id: 0, pcp: 0 }
      assert.equal(vf.components[0], {
        core: 2,
        name: 'cls1',
        type: 'classifier',
        rx_port: [{ port: 'phy:0 nq 1', vlan: none }],
        tx_port: [{ port: 'ring:0', vlan: none }],
      })
      assert.equal(vf.classifier_table, [
        { type: 'mac', value: '11:22:33:44:55:66', port: 'ring:0' },
      ])
      await ok(h, 'PUT', '/v1/vfs/2/classifier_table', { action: 'del', ...entry })
      await ok(h, 'PUT', '/v1/vfs/2/components/cls1/ports', {
        ...port('ring:0', 'tx'),
        action: 'detach',
      })
      await ok(h, 'DELETE', '/v1/vfs/2/components/cls1')
      assert.equal((await get<Vf>(h, '/v1/vfs/2')).classifier_table, [])
      assert.equal((await get<Vf>(h, '/v1/vfs/2')).components[0], { core: 2, type: 'unuse' })

      await ok(h, 'POST', '/v1/mirrors/3/components', { name: 'mr1', core: 2, type: 'mirror' })
      await ok(h, 'PUT', '/v1/mirrors/3/components/mr1/ports', port('ring:0', 'rx'))
      await ok(h, 'PUT', '/v1/mirrors/3/components/mr1/ports', port('ring:1', 'tx'))
      const mirror = await get<Vf>(h, '/v1/mirrors/3')
      assert.equal(mirror.components[0], {
        core: 2,
        name: 'mr1',
        type: 'mirror',
        // A mirror reports a vlan per port (an 18.11 one too: test/e2e/mirror.test.ts).
        rx_port: [{ port: 'ring:0', vlan: { operation: 'none', id: 0, pcp: 0 } }],
        tx_port: [{ port: 'ring:1', vlan: { operation: 'none', id: 0, pcp: 0 } }],
      })

      const exited = [h.sim('vf 2'), h.sim('mirror 3')].map(
        (sim) => new Promise((resolve) => sim.once('disconnected', () => resolve(sim.label))),
      )
      await ok(h, 'DELETE', '/v1/vfs/2')
      await ok(h, 'DELETE', '/v1/mirrors/3')
      assert.equal(await Promise.all(exited), ['vf 2', 'mirror 3'])
      assert.is(commandsOf(h.sim('vf 2')).at(-1), 'exit')
      assert.is(commandsOf(h.sim('mirror 3')).at(-1), 'exit')
      assert.is((await h.api('GET', '/v1/vfs/2')).status, 404)
      assert.is((await h.api('GET', '/v1/mirrors/3')).status, 404)
    },
    era2020,
  ))

test('pcap capture start and stop show in its GET and the topology document', () =>
  withHarness(
    ALL,
    async (h) => {
      const idle = await get(h, '/v1/pcaps/4')
      assert.equal(idle, {
        'client-id': 4,
        status: 'idle',
        'master-lcore': 1,
        core: [
          { core: 2, role: 'receive', rx_port: [{ port: 'phy:0' }] },
          { core: 3, role: 'write', filename: '' },
        ],
      })
      await ok(h, 'PUT', '/v1/pcaps/4/capture', { action: 'start' })
      const running = await get<Pcap>(h, '/v1/pcaps/4')
      assert.is(running.status, 'running')
      assert.match(
        running.core[1]?.filename ?? '',
        /^\/tmp\/spp_pcap\.\d{14}\.phy0\.1\.1\.pcap\.lz4$/,
      )
      const topology = await get<Topology>(h, '/v1/topology')
      assert.equal(topology.pcaps, { 4: running })
      assert.equal(Object.keys(topology.nfvs), ['1'])
      assert.is(topology.primary['master-lcore'], 0)
      await ok(h, 'PUT', '/v1/pcaps/4/capture', { action: 'stop' })
      assert.equal(await get(h, '/v1/pcaps/4'), idle)
      assert.equal(
        commandsOf(h.sim('pcap 4')).filter((c) => c !== 'status'),
        ['start', 'stop'],
      )
      const usage = await get<unknown[]>(h, '/v1/cpu_usage')
      assert.equal(usage.at(-1), {
        'proc-type': 'pcap',
        'client-id': 4,
        'master-lcore': 1,
        lcores: [1, 2, 3],
      })
      await ok(h, 'DELETE', '/v1/pcaps/4')
      assert.is((await h.api('GET', '/v1/pcaps/4')).status, 404)
    },
    era2020,
  ))

test("a launch as SPP's 2020 CLI sends it (client_id a string) starts a secondary that registers", () =>
  withHarness(
    [{ kind: 'primary' }],
    async (h) => {
      const registered = registrations(h.controller, 1).then(() => 'registered')
      // A child that cannot reach the controller hangs up: fail then instead of waiting for ever.
      const refused = new Promise<string>((resolve) =>
        h.sim('primary').once('launched', (child) => {
          child.once('disconnected', () => resolve('hung up'))
        }),
      )
      // As SPP's 2020 CLI sends `pri; launch nfv 5 -l 1,2 -m 512 -- -n 5 -s ...`: strings.
      const launch = {
        client_id: '5',
        proc_name: 'spp_nfv',
        eal: { '-l': '1,2', '-m': '512', '--proc-type': 'secondary' },
        app: { '-n': '5', '-s': `127.0.0.1:${h.controller.secondaryPort}` },
      }
      await ok(h, 'PUT', '/v1/primary/launch', launch)
      // Started as the command is handled, before the reply.
      const [child] = h.sim('primary').launched
      assert.is(child?.label, 'nfv 5')
      assert.is(await Promise.race([registered, refused]), 'registered')
      const nfv = await get<Record<string, unknown>>(h, '/v1/nfvs/5')
      assert.equal([nfv['client-id'], nfv['master-lcore']], [5, 1])
      assert.equal((await get<unknown[]>(h, '/v1/processes')).at(-1), {
        type: 'nfv',
        'client-id': 5,
      })
    },
    era2020,
  ))

test('a topology exported from 2020 processes applies to fresh ones, queue patches included', async () => {
  let exported: Record<string, Record<string, unknown>> = {}
  await withHarness(
    ALL,
    async (h) => {
      await ok(h, 'PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
      await ok(h, 'PUT', '/v1/nfvs/1/patches', { src: 'phy:0nq1', dst: 'ring:0' })
      await ok(h, 'PUT', '/v1/nfvs/1/forward', { action: 'start' })
      await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fw1', core: 3, type: 'forward' })
      const vlan = { operation: 'add', id: 10, pcp: 1 }
      const attach = { action: 'attach', port: 'ring:1', dir: 'rx', vlan }
      await ok(h, 'PUT', '/v1/vfs/2/components/fw1/ports', attach)
      await ok(h, 'POST', '/v1/vfs/2/components', { name: 'fw2', core: 2, type: 'forward' })
      const queue = { action: 'attach', port: 'phy:0nq1', dir: 'rx' }
      await ok(h, 'PUT', '/v1/vfs/2/components/fw2/ports', queue)
      await ok(h, 'POST', '/v1/mirrors/3/components', { name: 'mr1', core: 2, type: 'mirror' })
      const mirrored = { action: 'attach', port: 'ring:2', dir: 'rx' }
      await ok(h, 'PUT', '/v1/mirrors/3/components/mr1/ports', mirrored)
      exported = await get(h, '/v1/topology')
    },
    era2020,
  )
  await withHarness(
    ALL,
    async (h) => {
      const applied = await h.api('POST', '/v1/topology/apply', exported)
      assert.is(applied.status, 200, applied.text)
      assert.ok(commandsOf(h.sim('nfv 1')).includes('patch phy:0nq1 ring:0'))
      assert.ok(commandsOf(h.sim('vf 2')).includes('port add phy:0nq1 rx fw2'))
      const now = await get<typeof exported>(h, '/v1/topology')
      for (const part of ['nfvs', 'vfs', 'mirrors']) assert.equal(now[part], exported[part], part)
      const again = await h.api('POST', '/v1/topology/plan', now)
      // Nothing to do; the nfv's patch into ring:0, which nothing reads, is only a warning.
      const { steps, summary } = again.json() as { steps: unknown[]; summary: object }
      assert.equal({ steps, summary }, { steps: [], summary: {} })
    },
    era2020,
  )
})

test('events: process.identified carries the era; a pcap capture start and stop are published', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'nfv', clientId: 5, era: '18.11' },
      { kind: 'vf', clientId: 2 },
      { kind: 'pcap', clientId: 4 },
    ],
    async (h) => {
      const events = (type: string) =>
        h.controller.hub
          .since(0)
          .events.filter((e) => e.type === type)
          .map((e) => e.data)
      const identified = events('process.identified').sort(
        (a, b) => Number(a['client-id']) - Number(b['client-id']),
      )
      assert.equal(identified, [
        { kind: 'nfv', 'client-id': 1, era: '2020' },
        { kind: 'vf', 'client-id': 2, era: 'unknown' }, // a vf tells its era in its first status
        { kind: 'pcap', 'client-id': 4, era: '2020' },
        { kind: 'nfv', 'client-id': 5, era: '18.11' },
      ])
      await ok(h, 'PUT', '/v1/pcaps/4/capture', { action: 'start' })
      await ok(h, 'PUT', '/v1/pcaps/4/capture', { action: 'stop' })
      const pcap = { kind: 'pcap', 'client-id': 4 }
      assert.equal(
        [events('pcap.capture.started'), events('pcap.capture.stopped')],
        [[pcap], [pcap]],
      )
    },
    era2020,
  ))

test.run()
