import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness } from '../helpers/harness.ts'

const VF = [{ kind: 'vf' as const, clientId: 2 }]
const NONE = { operation: 'none', id: 0, pcp: 0 }

test('GET /v1/vfs/2 of a fresh vf: phy ports, an unused entry per worker core, empty classifier table', () =>
  withHarness(VF, async (h) => {
    const r = await h.api('GET', '/v1/vfs/2')
    assert.is(r.status, 200)
    assert.equal(r.json(), {
      'client-id': 2,
      ports: ['phy:0', 'phy:1'],
      components: [2, 3, 4, 5].map((core) => ({ core, type: 'unuse' })),
      classifier_table: [],
    })
    assert.equal(commandsOf(h.sim('vf 2')), ['status'])
  }))

test('components, ports with vlan and the classifier table: exact commands and the status they produce', () =>
  withHarness(VF, async (h) => {
    const steps: [string, string, unknown, string][] = [
      [
        'POST',
        '/v1/vfs/2/components',
        { name: 'cls', core: 2, type: 'classifier_mac' },
        'component start cls 2 classifier_mac',
      ],
      [
        'POST',
        '/v1/vfs/2/components',
        { name: 'fwd1', core: 3, type: 'forward' },
        'component start fwd1 3 forward',
      ],
      [
        'POST',
        '/v1/vfs/2/components',
        { name: 'mgr', core: 5, type: 'merge' },
        'component start mgr 5 merge',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/cls/ports',
        { action: 'attach', port: 'phy:0', dir: 'rx' },
        'port add phy:0 rx cls',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/cls/ports',
        { action: 'attach', port: 'ring:0', dir: 'tx', vlan: null },
        'port add ring:0 tx cls',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/cls/ports',
        {
          action: 'attach',
          port: 'ring:1',
          dir: 'tx',
          vlan: { operation: 'add', id: 100, pcp: 3 },
        },
        'port add ring:1 tx cls add_vlantag 100 3',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/fwd1/ports',
        {
          action: 'attach',
          port: 'ring:0',
          dir: 'rx',
          vlan: { operation: 'none', id: 'none', pcp: 'none' },
        },
        'port add ring:0 rx fwd1',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/fwd1/ports',
        { action: 'attach', port: 'vhost:0', dir: 'tx', vlan: {} },
        'port add vhost:0 tx fwd1',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/mgr/ports',
        { action: 'attach', port: 'ring:1', dir: 'rx' },
        'port add ring:1 rx mgr',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/mgr/ports',
        { action: 'attach', port: 'ring:2', dir: 'rx', vlan: { operation: 'del' } },
        'port add ring:2 rx mgr del_vlantag',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/mgr/ports',
        { action: 'attach', port: 'phy:1', dir: 'tx' },
        'port add phy:1 tx mgr',
      ],
      [
        'PUT',
        '/v1/vfs/2/classifier_table',
        {
          action: 'add',
          type: 'mac',
          mac_address: 'fa:16:3e:7d:cc:35',
          port: 'ring:0',
          vlan: 'ignored',
        },
        'classifier_table add mac fa:16:3e:7d:cc:35 ring:0',
      ],
      [
        'PUT',
        '/v1/vfs/2/classifier_table',
        { action: 'add', type: 'vlan', vlan: '100', mac_address: 'default', port: 'ring:1' },
        'classifier_table add vlan 100 default ring:1',
      ],
    ]
    for (const [method, path, body, command] of steps) {
      const r = await h.api(method, path, body)
      assert.is(r.status, 204, `${command}: ${r.text}`)
      assert.is(commandsOf(h.sim('vf 2')).at(-1), command)
    }
    const vlan = (v: object) => ({ ...NONE, ...v })
    assert.equal((await h.api('GET', '/v1/vfs/2')).json(), {
      'client-id': 2,
      ports: ['phy:0', 'phy:1', 'vhost:0', 'ring:0', 'ring:1', 'ring:2'],
      components: [
        {
          core: 2,
          name: 'cls',
          type: 'classifier_mac',
          rx_port: [{ port: 'phy:0', vlan: NONE }],
          tx_port: [
            { port: 'ring:0', vlan: NONE },
            { port: 'ring:1', vlan: vlan({ operation: 'add', id: 100, pcp: 3 }) },
          ],
        },
        {
          core: 3,
          name: 'fwd1',
          type: 'forward',
          rx_port: [{ port: 'ring:0', vlan: NONE }],
          tx_port: [{ port: 'vhost:0', vlan: NONE }],
        },
        { core: 4, type: 'unuse' },
        {
          core: 5,
          name: 'mgr',
          type: 'merge',
          rx_port: [
            { port: 'ring:1', vlan: NONE },
            { port: 'ring:2', vlan: vlan({ operation: 'del' }) },
          ],
          tx_port: [{ port: 'phy:1', vlan: NONE }],
        },
      ],
      classifier_table: [
        { type: 'vlan', value: '100/default', port: 'ring:1' },
        { type: 'mac', value: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
      ],
    })
  }))

test('detach, delete of entries and components: exact commands; the core shows as unused again', () =>
  withHarness(VF, async (h) => {
    await h.api('POST', '/v1/vfs/2/components', { name: 'fwd1', core: 3, type: 'forward' })
    await h.api('PUT', '/v1/vfs/2/components/fwd1/ports', {
      action: 'attach',
      port: 'ring:0',
      dir: 'tx',
    })
    await h.api('PUT', '/v1/vfs/2/classifier_table', {
      action: 'add',
      type: 'vlan',
      vlan: 475,
      mac_address: 'FA:16:3E:7D:CC:35',
      port: 'ring:0',
    })
    const steps: [string, string, unknown, string][] = [
      [
        'PUT',
        '/v1/vfs/2/classifier_table',
        {
          action: 'del',
          type: 'vlan',
          vlan: 475,
          mac_address: 'FA:16:3E:7D:CC:35',
          port: 'ring:0',
        },
        'classifier_table del vlan 475 FA:16:3E:7D:CC:35 ring:0',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/fwd1/ports',
        { action: 'detach', port: 'ring:0', dir: 'tx', vlan: 'anything: detach ignores it' },
        'port del ring:0 tx fwd1',
      ],
      ['DELETE', '/v1/vfs/2/components/fwd1', undefined, 'component stop fwd1'],
      ['DELETE', '/v1/vfs/2/components/nosuch', undefined, 'component stop nosuch'], // the process reports success
    ]
    for (const [method, path, body, command] of steps) {
      const r = await h.api(method, path, body)
      assert.is(r.status, 204, `${command}: ${r.text}`)
      assert.is(commandsOf(h.sim('vf 2')).at(-1), command)
    }
    const status = (await h.api('GET', '/v1/vfs/2')).json() as { components: unknown[] }
    assert.equal(status.components[1], { core: 3, type: 'unuse' })
  }))

test('the process rejecting a command is a 400 carrying its message', () =>
  withHarness(VF, async (h) => {
    await h.api('POST', '/v1/vfs/2/components', { name: 'fw1', core: 2, type: 'forward' })
    await h.api('PUT', '/v1/vfs/2/components/fw1/ports', {
      action: 'attach',
      port: 'ring:0',
      dir: 'rx',
    })
    const cases: [string, string, unknown, string][] = [
      [
        'POST',
        '/v1/vfs/2/components',
        { name: 'fw1', core: 3, type: 'forward' },
        // The vf would say bad value(component name); the controller says it first, naming it.
        'invalid key(name): "fw1" (this vf already runs a component of that name)',
      ],
      [
        'POST',
        '/v1/vfs/2/components',
        { name: 'fw2', core: 2, type: 'merge' },
        'command error: bad value(component type)',
      ],
      [
        'POST',
        '/v1/vfs/2/components',
        { name: 'fw2', core: 9, type: 'forward' },
        'invalid key(core): 9 (not a worker lcore of this vf: its worker lcores are 2, 3, 4, 5; the main lcore would hang it)',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/nosuch/ports',
        { action: 'attach', port: 'ring:1', dir: 'rx' },
        'command error: bad value(component name)',
      ],
      [
        'PUT',
        '/v1/vfs/2/components/fw1/ports',
        { action: 'attach', port: 'ring:1', dir: 'rx' },
        'command error: error occur',
      ],
      [
        'PUT',
        '/v1/vfs/2/classifier_table',
        { action: 'add', type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:7' },
        'command error: bad value(port)',
      ],
    ]
    for (const [method, path, body, text] of cases) {
      const r = await h.api(method, path, body)
      assert.is(r.status, 400, `${method} ${path}`)
      assert.match(r.type!, /^text\/plain/)
      assert.is(r.text, `${text}\n`)
    }
    assert.is((await h.api('GET', '/v1/vfs/2')).status, 200, 'the vf is still served')
  }))

test('the view the controller keeps of a vf is what its status says, after every command', () =>
  withHarness(VF, async (h) => {
    const vf = h.controller.registry.find({ kind: 'vf', clientId: 2 })
    const view = () => {
      const { view } = vf.describe()
      return view?.kind === 'vf' ? view : undefined
    }
    const steps: [string, string, unknown?][] = [
      ['POST', '/v1/vfs/2/components', { name: 'cls', core: 2, type: 'classifier_mac' }],
      ['POST', '/v1/vfs/2/components', { name: 'fw1', core: 3, type: 'forward' }],
      ['POST', '/v1/vfs/2/components', { name: 'fw1', core: 4, type: 'forward' }], // rejected
      ['PUT', '/v1/vfs/2/components/cls/ports', { action: 'attach', port: 'phy:0', dir: 'rx' }],
      [
        'PUT',
        '/v1/vfs/2/components/cls/ports',
        {
          action: 'attach',
          port: 'ring:0',
          dir: 'tx',
          vlan: { operation: 'add', id: 100, pcp: 3 },
        },
      ],
      [
        'PUT',
        '/v1/vfs/2/components/fw1/ports',
        { action: 'attach', port: 'ring:0', dir: 'rx', vlan: { operation: 'del' } },
      ],
      ['PUT', '/v1/vfs/2/components/fw1/ports', { action: 'attach', port: 'vhost:1', dir: 'tx' }],
      [
        'PUT',
        '/v1/vfs/2/classifier_table',
        { action: 'add', type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
      ],
      ['PUT', '/v1/vfs/2/components/fw1/ports', { action: 'detach', port: 'vhost:1', dir: 'tx' }],
      ['DELETE', '/v1/vfs/2/components/fw1'],
    ]
    for (const [method, path, body] of steps) {
      await h.api(method, path, body)
      const known = view()
      const status = (await h.api('GET', '/v1/vfs/2')).json() as Record<string, unknown>
      assert.equal(
        known && {
          ports: known.ports,
          components: known.components,
          classifier_table: known.classifier_table,
        },
        {
          ports: status.ports,
          components: status.components,
          classifier_table: status.classifier_table,
        },
        `${method} ${path} ${JSON.stringify(body)}`,
      )
    }
  }))

test('a slow vf (it reads its socket once per poll) answers every queued request, none fails', () =>
  withHarness(
    VF,
    async (h) => {
      const names = ['a', 'b', 'c', 'd', 'e']
      const results = await Promise.all(
        names.map((name, i) =>
          h.api('POST', '/v1/vfs/2/components', { name, core: 2 + (i % 4), type: 'forward' }),
        ),
      )
      assert.equal(
        results.map((r) => r.status),
        [204, 204, 204, 204, 204],
      )
      const sent = commandsOf(h.sim('vf 2'))
      assert.is(sent.filter((line) => line.startsWith('component start')).length, 5)
      assert.ok(
        sent.filter((line) => line === 'status').length <= 2,
        'the cores are read once or twice',
      )
    },
    { sim: { pollMs: 50 } },
  ))

test.run()
