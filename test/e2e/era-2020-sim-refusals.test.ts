// Bad bodies and the inputs that kill a 2020 process (spp-protocol-2020 §2.4): 400, nothing sent.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withHarness } from '../helpers/harness.ts'

type Case = [method: string, path: string, body: unknown, field: RegExp]
const port = (p: string, action = 'add') => ({ action, port: p })

/** §2.4: each of these would end the process (or corrupt its slot 0 while answering success). */
const HAZARDS: Case[] = [
  ...['ring:x', 'ring:1a', 'phy:0nqx', 'ring:', 'ring', '', 'phy:0', 'tap:0', 'udf:1'].flatMap(
    (p): Case[] => [
      ['PUT', '/v1/primary/ports', port(p), /key\(port\)/],
      ['PUT', '/v1/nfvs/1/ports', port(p), /key\(port\)/],
    ],
  ),
  ['PUT', '/v1/nfvs/1/ports', port('pipe:0'), /key\(port\)/], // an nfv cannot create a pipe
  ['PUT', '/v1/nfvs/1/ports', port('phy:0', 'del'), /key\(port\)/], // out-of-bounds index
  ['PUT', '/v1/nfvs/1/ports', port('tap:1', 'del'), /key\(port\)/],
  ['PUT', '/v1/primary/ports', port('phy:1', 'del'), /key\(port\)/], // resets slot 0
  ['PUT', '/v1/primary/ports', port('ring:x', 'del'), /key\(port\)/],
  ['PUT', '/v1/nfvs/1/patches', { src: 'ring:x', dst: 'ring:0' }, /key\(src\)/], // uninitialised pointer
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:' }, /key\(dst\)/],
  ['PUT', '/v1/primary/patches', { src: 'phy:0', dst: 'ring:1a' }, /key\(dst\)/],
  ['PUT', '/v1/primary/patches', { src: 'phy:0 nq 1', dst: 'ring:0' }, /key\(src\)/],
  [
    'PUT',
    '/v1/primary/ports',
    { action: 'add', port: 'pipe:0', rx: 'ring:x', tx: 'ring:1' },
    /key\(rx\)/,
  ],
]

/** Bodies the 2020 routes refuse before any command is built. */
const BAD_BODIES: Case[] = [
  ['PUT', '/v1/primary/ports', { action: 'add', port: 'pipe:0' }, /key\(rx\)/],
  ['PUT', '/v1/primary/forward', { action: 'go' }, /key\(action\)/],
  ['PUT', '/v1/nfvs/1/forward', {}, /key\(action\)/],
  ['PUT', '/v1/pcaps/4/capture', { action: 'pause' }, /key\(action\)/],
  ['PUT', '/v1/pcaps/4/capture', 'start', /JSON|body/i],
  [
    'PUT',
    '/v1/primary/launch',
    { client_id: 1, proc_name: 'spp_nfv', eal: { '-m': '512' }, app: {} },
    /key\(eal\)/,
  ],
  [
    'POST',
    '/v1/primary/flow_rules/port_id/0',
    { rule: { direction: 'both', pattern: ['eth'], actions: ['queue index 0'] } },
    /key\(rule\.direction\)/,
  ],
  [
    'PUT',
    '/v1/primary/launch',
    { client_id: 1, proc_name: 'spp_nfv', eal: { '-l': '1', '--proc-type': 'a b' }, app: {} },
    /key\(eal\.--proc-type\)/,
  ],
  [
    'PUT',
    '/v1/primary/launch',
    {
      client_id: 1,
      proc_name: 'spp_nfv',
      eal: { '-l': '1', '--proc-type': 'secondary' },
      app: { '--client-id': 1 },
    },
    /key\(app\)/,
  ],
  [
    'POST',
    '/v1/primary/flow_rules/port_id/0',
    { rule: { direction: 'ingress', pattern: ['eth / end'], actions: ['x'] } },
    /key\(rule\.pattern\.0\)/,
  ],
  [
    'PUT',
    '/v1/primary/launch',
    {
      client_id: 1,
      proc_name: 'spp_nfv',
      // 44 option words: more than a 48-token command line holds after `launch ID NAME --`
      eal: {
        '-l': '1',
        '--proc-type': 'secondary',
        ...Object.fromEntries(
          [
            '-m',
            '-n',
            '-r',
            '--file-prefix',
            '--log-level',
            '--huge-dir',
            '--socket-mem',
            '--socket-limit',
            '--base-virtaddr',
            '--iova-mode',
            '--vfio-intr',
            '-d',
            '--vdev',
            '-b',
            '-w',
            '--master-lcore',
            '-s',
            '--syslog',
          ].map((o) => [o, 'x1']),
        ),
        '--no-pci': null,
        '--in-memory': null,
        '--no-hpet': null,
        '--legacy-mem': null,
      },
      app: { '-n': 1, '-s': '127.0.0.1:6666' },
    },
    /key\(app\).*at most 43 option words/,
  ],
  ['DELETE', '/v1/primary/flow_rules/x/port_id/0', undefined, /rule_id/],
  // A client id as a string is one decimal spelling of 1 to 127, nothing else.
  ...['05', '128', '0', '5 ', '-1', '1e1', '', 'x'].map((id): Case => [
    'PUT',
    '/v1/primary/launch',
    {
      client_id: id,
      proc_name: 'spp_nfv',
      eal: { '-l': '1', '--proc-type': 'secondary' },
      app: {},
    },
    /key\(client_id\)/,
  ]),
  ['POST', '/v1/vfs/2/components', { name: 'c1', core: 2, type: 'classifier_vlan' }, /key\(type\)/],
  [
    'PUT',
    '/v1/vfs/2/components/c1/ports',
    { action: 'attach', port: 'phy:0 nq 1', dir: 'rx' },
    /key\(port\)/,
  ],
  ['POST', '/v1/mirrors/3/components', { name: 'm 1', core: 2, type: 'mirror' }, /key\(name\)/],
]

test('bad bodies and §2.4 hazards are 400s naming the field; no 2020 process hears of them', () =>
  withHarness(
    [
      { kind: 'primary' },
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2 },
      { kind: 'mirror', clientId: 3 },
      { kind: 'pcap', clientId: 4 },
    ],
    async (h) => {
      const before = await Promise.all(
        ['/v1/primary/status', '/v1/nfvs/1'].map(async (path) => (await h.api('GET', path)).json()),
      )
      const heard = h.sims.map((sim) => sim.received.length)
      const wrong: string[] = []
      for (const [method, path, body, field] of [...HAZARDS, ...BAD_BODIES]) {
        const r = await h.api(method, path, body)
        const plain = r.status === 400 && /^text\/plain/.test(r.type ?? '') && field.test(r.text)
        if (!plain) wrong.push(`${method} ${path} ${JSON.stringify(body)}: ${r.status} ${r.text}`)
      }
      // A hazard that got through shows here first: the process died of it.
      assert.equal(
        h.sims.map((sim) => sim.crashes),
        h.sims.map(() => []),
      )
      assert.equal(wrong, [])
      assert.equal(
        h.sims.map((sim) => sim.received.length),
        heard,
        'nothing was sent',
      )
      const after = await Promise.all(
        ['/v1/primary/status', '/v1/nfvs/1'].map(async (path) => (await h.api('GET', path)).json()),
      )
      const forwarder = (s: unknown) => (s as { forwarder: unknown }).forwarder
      assert.equal(forwarder(after[0]), forwarder(before[0]))
      assert.equal(after[1], before[1])
    },
    { sim: { era: '2020' } },
  ))

test('what a 2020 process refuses comes back as a 400 with its own words, and it stays up', () =>
  withHarness(
    [{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }, { kind: 'vf', clientId: 2 }],
    async (h) => {
      const cases: [string, string, unknown, RegExp][] = [
        // (A ring beyond -n, or a port the nfv lacks, the controller refuses itself: hazards.ts.)
        ['PUT', '/v1/primary/ports', { action: 'del', port: 'ring:1' }, /del failed/],
        ['PUT', '/v1/primary/patches', { src: 'phy:0', dst: 'ring:3' }, /patch failed/],
        ['PUT', '/v1/nfvs/1/ports', { action: 'del', port: 'ring:7' }, /del failed/],
        [
          'PUT',
          '/v1/vfs/2/components/c9/ports',
          { action: 'attach', port: 'ring:0', dir: 'rx' },
          /Invalid value|component/,
        ],
      ]
      for (const [method, path, body, text] of cases) {
        const r = await h.api(method, path, body)
        assert.is(r.status, 400, `${method} ${path}: ${r.status} ${r.text}`)
        assert.match(r.text, text, `${method} ${path}: ${r.text}`)
      }
      assert.equal(
        h.sims.map((sim) => sim.crashes),
        [[], [], []],
      )
      assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
    },
    { sim: { era: '2020' } },
  ))

test.run()
