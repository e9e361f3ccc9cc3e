// The 2020 routes against scripted byte peers: exact commands, 405s for 18.11, cpu routes, a 2019 primary.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { cpuLayout } from '../../src/http/routes/host.ts'
import { commandsOf, withHarness } from '../helpers/harness.ts'
import { nfv2020, pad, primary2020, spaced2020, connectPeers } from '../helpers/peer-2020.ts'

const peers = connectPeers

test('every 2020 primary route sends its exact command', () =>
  withHarness([], async (h) => {
    const [primary] = await peers(h, [[h.controller.primaryPort, primary2020]])
    const calls: [string, string, unknown, number][] = [
      ['PUT', '/v1/primary/ports', { action: 'add', port: 'ring:1' }, 204],
      [
        'PUT',
        '/v1/primary/ports',
        { action: 'add', port: 'pipe:0', rx: 'ring:0', tx: 'ring:1' },
        204,
      ],
      ['PUT', '/v1/primary/ports', { action: 'del', port: 'memif:3' }, 204],
      ['PUT', '/v1/primary/forward', { action: 'start' }, 204],
      ['PUT', '/v1/primary/forward', { action: 'stop' }, 204],
      ['PUT', '/v1/primary/patches', { src: 'phy:0nq1', dst: 'ring:0' }, 204],
      ['DELETE', '/v1/primary/patches', undefined, 204],
      [
        'PUT',
        '/v1/primary/launch',
        {
          client_id: 1,
          proc_name: 'spp_nfv',
          eal: { '-m': '512', '-l': '1,2', '--proc-type': 'secondary' },
          app: { '-s': '192.168.11.59:6666', '-n': 1 },
        },
        204,
      ],
      [
        'POST',
        '/v1/primary/flow_rules/port_id/0',
        {
          rule: {
            group: 0,
            priority: 0,
            direction: 'ingress',
            transfer: true,
            pattern: ['eth dst is 11:22:33:44:55:66 type mask 0xffff', 'vlan vid is 100'],
            actions: ['queue index 1', 'of_pop_vlan'],
          },
        },
        200,
      ],
      [
        'POST',
        '/v1/primary/flow_rules/port_id/0/validate',
        { rule: { direction: 'egress', pattern: ['eth'], actions: ['queue index 1'] } },
        200,
      ],
      ['DELETE', '/v1/primary/flow_rules/port_id/1', undefined, 200],
      ['DELETE', '/v1/primary/flow_rules/3/port_id/1', undefined, 200],
    ]
    for (const [method, path, body, status] of calls) {
      const r = await h.api(method, path, body)
      assert.is(r.status, status, `${method} ${path}: ${r.text}`)
    }
    assert.equal(primary!.received.slice(1), [
      'status', // an add is checked against what the primary lists now (state/hazards.ts)
      'add ring:1',
      'status',
      'add pipe:0 ring:0 ring:1',
      'del memif:3',
      'forward',
      'stop',
      'patch phy:0nq1 ring:0',
      'patch reset',
      'launch 1 spp_nfv -l 1,2 --proc-type secondary -m 512 -- -n 1 -s 192.168.11.59:6666',
      'flow create phy:0 group 0 priority 0 transfer ingress pattern eth dst is 11:22:33:44:55:66 type mask 0xffff / vlan vid is 100 / end actions queue index 1 / of_pop_vlan / end',
      'flow validate phy:0 egress pattern eth / end actions queue index 1 / end',
      'flow destroy phy:1 ALL',
      'flow destroy phy:1 3',
    ])
    const flow = await h.api('DELETE', '/v1/primary/flow_rules/port_id/0')
    assert.equal(flow.json(), { result: 'success', message: 'Flow rule #0 created', rule_id: '0' })
  }))

test('18.11 processes answer 405 to 2020-only routes and are sent nothing', () =>
  withHarness(
    [{ kind: 'primary' }, { kind: 'vf', clientId: 2 }, { kind: 'mirror', clientId: 3 }],
    async (h) => {
      const cases: [string, string, unknown][] = [
        ['PUT', '/v1/primary/ports', { action: 'add', port: 'ring:1' }],
        ['PUT', '/v1/primary/forward', { action: 'start' }],
        ['PUT', '/v1/primary/patches', { src: 'phy:0', dst: 'ring:0' }],
        ['DELETE', '/v1/primary/patches', undefined],
        [
          'PUT',
          '/v1/primary/launch',
          {
            client_id: 1,
            proc_name: 'spp_nfv',
            eal: { '-l': '1', '--proc-type': 'secondary' },
            app: {},
          },
        ],
        ['DELETE', '/v1/primary/flow_rules/port_id/0', undefined],
        ['DELETE', '/v1/vfs/2', undefined],
        ['DELETE', '/v1/mirrors/3', undefined],
        // An 18.11 primary lists no lcores: no usage to report, and it says so (not 200 []).
        ['GET', '/v1/cpu_usage', undefined],
      ]
      for (const [method, path, body] of cases) {
        const r = await h.api(method, path, body)
        assert.is(r.status, 405, `${method} ${path}: ${r.text}`)
        assert.is(r.headers.get('allow'), '', 'a 405 says which methods are allowed: none here')
        assert.match(r.text, /not supported by the release of .* \(SPP 18\.11 of November 2018\)/)
      }
      assert.equal(commandsOf(h.sim('primary')), [])
      assert.equal(commandsOf(h.sim('vf 2')), ['status']) // read-only: how its era is learnt
      assert.equal(commandsOf(h.sim('mirror 3')), ['status'])
      assert.is((await h.api('GET', '/v1/pcaps/2')).status, 404)
    },
  ))

test("a vf component type is sent in the word of the vf's era", () =>
  withHarness([{ kind: 'vf', clientId: 5 }], async (h) => {
    const [vf] = await peers(h, [[h.controller.secondaryPort, spaced2020(2, 'vf')]])
    for (const type of ['classifier_mac', 'classifier']) {
      for (const [id, core] of [
        [2, 3],
        [5, 2],
      ]) {
        const r = await h.api('POST', `/v1/vfs/${id}/components`, { name: 'cls1', core, type })
        assert.is(r.status, 204, r.text)
        assert.is((await h.api('DELETE', `/v1/vfs/${id}/components/cls1`)).status, 204)
      }
    }
    assert.equal(vf!.received.slice(1), [
      'status',
      'component start cls1 3 classifier',
      'component stop cls1',
      'component start cls1 3 classifier',
      'component stop cls1',
    ])
    assert.equal(
      commandsOf(h.sim('vf 5')).filter((l) => l.startsWith('component start')),
      ['component start cls1 2 classifier_mac', 'component start cls1 2 classifier_mac'],
    )
  }))

test('an nfv patch on a 19.11 nfv takes a queue; 18.11 nfvs keep the 18.11 rules', () =>
  withHarness([{ kind: 'nfv', clientId: 5 }], async (h) => {
    const [nfv] = await peers(h, [[h.controller.secondaryPort, nfv2020(1)]])
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0nq1', dst: 'ring:0' })).status,
      204,
    )
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'memif:0' })).status,
      204,
    )
    assert.is(
      (await h.api('PUT', '/v1/nfvs/5/patches', { src: 'phy:0nq1', dst: 'ring:0' })).status,
      400,
    )
    assert.is(
      (await h.api('PUT', '/v1/nfvs/5/ports', { action: 'add', port: 'memif:0' })).status,
      400,
    )
    // Its status is read first: a patch is checked against the ports it lists (state/hazards.ts).
    assert.equal(nfv!.received.slice(1), ['status', 'patch phy:0nq1 ring:0', 'add memif:0'])
  }))

test('cpu_layout groups the sysfs cpus by socket and core; cpu_usage reads every process', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cpu-'))
  writeFileSync(join(root, 'kernel_max'), '7\n')
  const cpus: [number, number, number][] = [
    [0, 0, 0],
    [1, 1, 0],
    [2, 0, 1],
    [3, 1, 1],
    [4, 0, 0],
    [6, 0, 1],
  ]
  for (const [cpu, core, socket] of cpus) {
    mkdirSync(join(root, `cpu${cpu}`, 'topology'), { recursive: true })
    writeFileSync(join(root, `cpu${cpu}`, 'topology', 'core_id'), `${core}\n`)
    writeFileSync(join(root, `cpu${cpu}`, 'topology', 'physical_package_id'), `${socket}\n`)
  }
  assert.equal(await cpuLayout(root), [
    {
      socket_id: 0,
      cores: [
        { core_id: 0, lcores: [0, 4] },
        { core_id: 1, lcores: [1] },
      ],
    },
    {
      socket_id: 1,
      cores: [
        { core_id: 0, lcores: [2, 6] },
        { core_id: 1, lcores: [3] },
      ],
    },
  ])
  await withHarness([{ kind: 'nfv', clientId: 5 }], async (h) => {
    const { primaryPort: p, secondaryPort: s } = h.controller
    await peers(h, [
      [p, primary2020],
      [s, nfv2020(1)],
      [s, spaced2020(2, 'vf')],
      [s, spaced2020(4, 'pcap')],
    ])
    assert.equal((await h.api('GET', '/v1/cpu_usage')).json(), [
      { 'proc-type': 'primary', 'master-lcore': 0, lcores: [0, 1] },
      { 'proc-type': 'nfv', 'client-id': 1, 'master-lcore': 1, lcores: [1, 2] },
      { 'proc-type': 'vf', 'client-id': 2, 'master-lcore': 1, lcores: [1, 2, 3] },
      { 'proc-type': 'pcap', 'client-id': 4, 'master-lcore': 1, lcores: [1, 2, 3] },
    ]) // the 18.11 nfv 5 reports no lcores: left out
    const layout = await h.api('GET', '/v1/cpu_layout')
    assert.is(layout.status, 200)
    assert.ok(Array.isArray(layout.json()))
  })
})

test('cpu_layout answers 204 where sysfs cannot be read, as SPP without its helper (§10.5)', () => {
  const nowhere = join(mkdtempSync(join(tmpdir(), 'cpu-')), 'missing')
  return withHarness(
    [],
    async (h) => {
      const r = await h.api('GET', '/v1/cpu_layout')
      assert.is(r.status, 204)
      assert.is(r.text, '')
    },
    { sysfsCpu: nowhere },
  )
})

test('a 19.11 vf attaches a queue of a phy port; an 18.11 vf is told the port is invalid', () =>
  withHarness([{ kind: 'vf', clientId: 5 }], async (h) => {
    const [vf] = await peers(h, [[h.controller.secondaryPort, spaced2020(2, 'vf')]])
    const attach = { action: 'attach', port: 'phy:0nq1', dir: 'rx' }
    const r = await h.api('PUT', '/v1/vfs/2/components/fw1/ports', attach)
    assert.is(r.status, 204, r.text)
    assert.equal(vf!.received.slice(1), ['status', 'port add phy:0nq1 rx fw1'])
    const old = await h.api('PUT', '/v1/vfs/5/components/fw1/ports', attach)
    assert.is(old.status, 400)
    assert.match(old.text, /^invalid key\(port\): "phy:0nq1"/)
    assert.equal(commandsOf(h.sim('vf 5')), ['status'])
  }))

test('a 2019 primary (2048-byte frames) has ports and patches but no flow rules, pipes or memif', () =>
  withHarness([], async (h) => {
    const short = (line: string) => {
      const answer = primary2020(line) as Buffer
      return pad(answer.toString('latin1', 0, answer.indexOf(0)), 2048)
    }
    const [primary] = await peers(h, [[h.controller.primaryPort, short]])
    assert.is(
      (await h.api('PUT', '/v1/primary/ports', { action: 'add', port: 'ring:1' })).status,
      204,
    )
    const flow = await h.api('DELETE', '/v1/primary/flow_rules/port_id/0')
    assert.is(flow.status, 405)
    assert.match(flow.text, /needs SPP 19\.11/)
    const pipe = { action: 'add', port: 'pipe:0', rx: 'ring:0', tx: 'ring:1' }
    assert.is((await h.api('PUT', '/v1/primary/ports', pipe)).status, 405)
    assert.is(
      (await h.api('PUT', '/v1/primary/ports', { action: 'del', port: 'memif:0' })).status,
      405,
    )
    assert.equal(primary!.received, ['status', 'status', 'add ring:1'])
  }))

test.run()
