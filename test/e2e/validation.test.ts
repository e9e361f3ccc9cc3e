import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness } from '../helpers/harness.ts'

const ALL = [
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]

// [method, path, body, the 400 text must match]
type Case = [string, string, unknown, RegExp]
const generic = (method: string, path: string): Case[] => [
  [method, path, undefined, /request body is empty/],
  [method, path, '', /request body is empty/],
  [method, path, '{"action": ', /not valid JSON/],
  [method, path, '[]', /must be a JSON object/],
  [method, path, '"start"', /must be a JSON object/],
  [method, path, 'null', /must be a JSON object/],
  [method, path, '42', /must be a JSON object/],
]

const NFV: Case[] = [
  ...generic('PUT', '/v1/nfvs/1/forward'),
  ['PUT', '/v1/nfvs/1/forward', {}, /^key\(action\) required\.$/],
  ['PUT', '/v1/nfvs/1/forward', { action: 'bogus' }, /^invalid key\(action\): "bogus"/],
  ['PUT', '/v1/nfvs/1/forward', { action: 'Start' }, /key\(action\)/],
  ['PUT', '/v1/nfvs/1/forward', { action: 1 }, /key\(action\)/],
  ...generic('PUT', '/v1/nfvs/1/ports'),
  ['PUT', '/v1/nfvs/1/ports', { action: 'add' }, /^key\(port\) required\.$/],
  ['PUT', '/v1/nfvs/1/ports', { port: 'ring:0' }, /^key\(action\) required\.$/],
  ['PUT', '/v1/nfvs/1/ports', { action: 'bad', port: 'ring:0' }, /key\(action\)/],
  ...[
    'phy:0',
    'ring: 1',
    'ring:-1',
    'ring:+1',
    'ring:1_0',
    'ring:010',
    'ring:',
    'ring',
    'ring:1:2',
    'eth:0',
    'RING:0',
    'ring:0 ',
    ' ring:0',
    'ring:0\n',
    'ring:99999999',
    'ring:0x1',
    'ring:1.5',
    'ring:0;exit',
    'ring:0 add_vlantag',
  ].map((port): Case => ['PUT', '/v1/nfvs/1/ports', { action: 'add', port }, /key\(port\)/]),
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 0 }, /key\(port\)/],
  ['PUT', '/v1/nfvs/1/ports', { action: 'del', port: null }, /key\(port\)/],
  ...generic('PUT', '/v1/nfvs/1/patches'),
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0' }, /^key\(dst\) required\.$/],
  ['PUT', '/v1/nfvs/1/patches', { dst: 'phy:0' }, /^key\(src\) required\.$/],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0 reset' }, /key\(dst\)/],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:00', dst: 'ring:0' }, /key\(src\)/],
]

const COMPONENT = (kind: 'vfs' | 'mirrors', id: number, type: string): Case[] => [
  ...generic('POST', `/v1/${kind}/${id}/components`),
  ['POST', `/v1/${kind}/${id}/components`, { core: 2, type }, /^key\(name\) required\.$/],
  ['POST', `/v1/${kind}/${id}/components`, { name: 'c1', type }, /^key\(core\) required\.$/],
  ['POST', `/v1/${kind}/${id}/components`, { name: 'c1', core: 2 }, /^key\(type\) required\.$/],
  ...[
    '',
    'a b',
    'a\tb',
    '.a',
    '-a',
    'x'.repeat(32),
    'a;b',
    'a/b',
    'a"b',
    'é',
    'fw1 add_vlantag 1 0',
    'a\u0000b',
  ].map((name): Case => [
    'POST',
    `/v1/${kind}/${id}/components`,
    { name, core: 2, type },
    /key\(name\)/,
  ]),
  ...[-1, 128, 1.5, '2', true, null, 1e300, [2], { n: 2 }].map((core): Case => [
    'POST',
    `/v1/${kind}/${id}/components`,
    { name: 'c1', core, type },
    /key\(core\)/,
  ]),
  ['POST', `/v1/${kind}/${id}/components`, { name: 'c1', core: 2, type: 'bogus' }, /key\(type\)/],
  [
    'POST',
    `/v1/${kind}/${id}/components`,
    { name: 'c1', core: 2, type: kind === 'vfs' ? 'mirror' : 'forward' },
    /key\(type\)/,
  ],
  ...generic('PUT', `/v1/${kind}/${id}/components/c1/ports`),
  [
    'PUT',
    `/v1/${kind}/${id}/components/c1/ports`,
    { port: 'ring:0', dir: 'rx' },
    /^key\(action\) required\.$/,
  ],
  [
    'PUT',
    `/v1/${kind}/${id}/components/c1/ports`,
    { action: 'attach', dir: 'rx' },
    /^key\(port\) required\.$/,
  ],
  [
    'PUT',
    `/v1/${kind}/${id}/components/c1/ports`,
    { action: 'attach', port: 'ring:0' },
    /^key\(dir\) required\.$/,
  ],
  [
    'PUT',
    `/v1/${kind}/${id}/components/c1/ports`,
    { action: 'add', port: 'ring:0', dir: 'rx' },
    /key\(action\)/,
  ],
  [
    'PUT',
    `/v1/${kind}/${id}/components/c1/ports`,
    { action: 'attach', port: 'ring:0', dir: 'both' },
    /key\(dir\)/,
  ],
  ...['pcap:0', 'nullpmd:0', 'ring:32', 'ring:01', 'ring:-1', 'vhost: 1'].map((port): Case => [
    'PUT',
    `/v1/${kind}/${id}/components/c1/ports`,
    { action: 'attach', port, dir: 'rx' },
    /key\(port\)/,
  ]),
  ...[
    'a%20b',
    'a%09b',
    '.a',
    'a%2Fb',
    'a%3Bb',
    'x'.repeat(32),
    'fw1%20add_vlantag%201%200',
    '%00',
  ].map((name): Case => [
    'PUT',
    `/v1/${kind}/${id}/components/${name}/ports`,
    { action: 'attach', port: 'ring:0', dir: 'rx' },
    /key\(name\)/,
  ]),
  ...['a%20b', '-a', 'a%0Ab', 'x'.repeat(32), 'c1%20c2'].map((name): Case => [
    'DELETE',
    `/v1/${kind}/${id}/components/${name}`,
    undefined,
    /key\(name\)/,
  ]),
]

const VF: Case[] = [
  ...COMPONENT('vfs', 2, 'forward'),
  ...[
    [{ operation: 'bogus' }, /key\(vlan\.operation\)/],
    [{ id: 5 }, /^key\(vlan\.operation\) required\.$/],
    [{ operation: 'add', pcp: 1 }, /^key\(vlan\.id\) required\.$/],
    [{ operation: 'add', id: 1 }, /^key\(vlan\.pcp\) required\.$/],
    [{ operation: 'add', id: 4096, pcp: 0 }, /key\(vlan\.id\)/],
    [{ operation: 'add', id: -1, pcp: 0 }, /key\(vlan\.id\)/],
    [{ operation: 'add', id: '10', pcp: 0 }, /key\(vlan\.id\)/],
    [{ operation: 'add', id: 10, pcp: 8 }, /key\(vlan\.pcp\)/],
    [{ operation: 'add', id: 10, pcp: 1.5 }, /key\(vlan\.pcp\)/],
    ['add', /key\(vlan\)/],
    [5, /key\(vlan\)/],
  ].map(([vlan, text]): Case => [
    'PUT',
    '/v1/vfs/2/components/c1/ports',
    { action: 'attach', port: 'ring:0', dir: 'rx', vlan },
    text as RegExp,
  ]),
  ...generic('PUT', '/v1/vfs/2/classifier_table'),
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
    /^key\(action\) required\.$/,
  ],
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
    /^key\(type\) required\.$/,
  ],
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'mac', port: 'ring:0' },
    /^key\(mac_address\) required\.$/,
  ],
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'mac', mac_address: 'FA:16:3E:7D:CC:35' },
    /^key\(port\) required\.$/,
  ],
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'vlan', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
    /^key\(vlan\) required\.$/,
  ],
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'set', type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
    /key\(action\)/,
  ],
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'ether', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
    /key\(type\)/,
  ],
  ...[null, 4096, -1, '0101', '1e2', ' 101', 'x', 1.5, true].map((vlan): Case => [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'vlan', vlan, mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
    /key\(vlan\)/,
  ]),
  ...[
    'fa-16-3e-7d-cc-35',
    'fa163e7dcc35',
    'fa16.3e7d.cc35',
    '00:11:22:33:44:55:66',
    'FA:16:3E:7D:CC',
    'FA:16:3E:7D:CC:3',
    'FA:16:3E:7D:CC:35 ring:1',
    'DEFAULT',
    123,
    true,
  ].map((mac_address): Case => [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'mac', mac_address, port: 'ring:0' },
    /key\(mac_address\)/,
  ]),
  [
    'PUT',
    '/v1/vfs/2/classifier_table',
    { action: 'add', type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'pcap:0' },
    /key\(port\)/,
  ],
]

const MIRROR: Case[] = COMPONENT('mirrors', 3, 'mirror')

for (const [family, cases] of [
  ['nfv', NFV],
  ['vf', VF],
  ['mirror', MIRROR],
] as const) {
  test(`every invalid ${family} request is a text/plain 400 naming the field, and nothing is sent`, () =>
    withHarness(ALL, async (h) => {
      for (const [method, path, body, text] of cases) {
        const r = await h.api(method, path, body)
        const what = `${method} ${path} ${JSON.stringify(body)}`
        assert.is(r.status, 400, `${what}: ${r.status} ${r.text}`)
        assert.match(r.type!, /^text\/plain/, what)
        assert.ok(r.text.endsWith('\n'), what)
        assert.match(r.text.slice(0, -1), text, what)
      }
      for (const sim of h.sims) assert.equal(commandsOf(sim), [], `${sim.label} received nothing`)
    }))
}

test('strict forms that are valid reach the process unchanged', () =>
  withHarness(ALL, async (h) => {
    // (A patch is checked against the nfv's ports, read first: it must have nullpmd:0.)
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'nullpmd:0' })).status,
      204,
    )
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'nullpmd:0' })).status,
      204,
    )
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'pcap:12' })).status,
      204,
    )
    assert.is(
      (
        await h.api('POST', '/v1/vfs/2/components', {
          name: 'A.b-c_9',
          core: 2,
          type: 'forward',
          extra: 'ignored',
        })
      ).status,
      204,
    )
    assert.equal(commandsOf(h.sim('nfv 1')), [
      'add nullpmd:0',
      'status',
      'patch phy:0 nullpmd:0',
      'add pcap:12',
    ])
    assert.equal(commandsOf(h.sim('vf 2')), ['status', 'component start A.b-c_9 2 forward'])
  }))

test.run()
