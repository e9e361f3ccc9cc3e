// 2020 processes as scripted byte peers: registration, a reply split at any byte, era metrics.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withHarness } from '../helpers/harness.ts'
import {
  nfv2020,
  primary2020,
  PRIMARY_STATUS,
  spaced2020,
  type Peer,
  connectPeers,
} from '../helpers/peer-2020.ts'

const peers = connectPeers
const after = (peer: Peer) => peer.received.slice(1) // what came after the handshake

test('2020 processes register and answer GET with their 2020 members', () =>
  withHarness([], async (h) => {
    const { primaryPort: p, secondaryPort: s } = h.controller
    const [primary, nfv, vf, mirror, pcap] = await peers(h, [
      [p, primary2020],
      [s, nfv2020(1)],
      [s, spaced2020(2, 'vf')],
      [s, spaced2020(3, 'mirror')],
      [s, spaced2020(4, 'pcap')],
    ])
    assert.equal((await h.api('GET', '/v1/processes')).json(), [
      { type: 'primary' },
      { type: 'nfv', 'client-id': 1 },
      { type: 'vf', 'client-id': 2 },
      { type: 'mirror', 'client-id': 3 },
      { type: 'pcap', 'client-id': 4 },
    ])
    const nfvGet = await h.api('GET', '/v1/nfvs/1')
    assert.is(nfvGet.status, 200)
    assert.equal(nfvGet.json(), {
      'client-id': 1,
      status: 'Running',
      'master-lcore': 1,
      lcores: [1, 2],
      ports: ['phy:0', 'phy:0 nq 1', 'ring:0'],
      patches: [{ src: 'phy:0', dst: 'ring:0' }],
    })
    assert.equal(
      (await h.api('GET', '/v1/vfs/2')).text,
      JSON.stringify({
        'client-id': 2,
        ports: ['phy:0', 'phy:1', 'ring:0'],
        'master-lcore': 1,
        components: [
          {
            core: 2,
            name: 'cls',
            type: 'classifier',
            rx_port: [{ port: 'phy:0', vlan: { operation: 'none', id: 0, pcp: 0 } }],
            tx_port: [{ port: 'ring:0', vlan: { operation: 'none', id: 0, pcp: 0 } }],
          },
          { core: 3, type: 'unuse' },
        ],
        classifier_table: [],
      }),
    )
    assert.equal((await h.api('GET', '/v1/mirrors/3')).json(), {
      'client-id': 3,
      ports: ['phy:0', 'ring:0', 'ring:1'],
      'master-lcore': 1,
      components: [{ core: 2, type: 'unuse' }],
    })
    assert.equal((await h.api('GET', '/v1/pcaps/4')).json(), {
      'client-id': 4,
      status: 'idle',
      'master-lcore': 1,
      core: [
        { core: 2, role: 'receive', rx_port: [{ port: 'phy:0' }] },
        { core: 3, role: 'write', filename: '' },
      ],
    })
    // The 2020 status as the primary sent it, member order included.
    assert.is((await h.api('GET', '/v1/primary/status')).text, PRIMARY_STATUS)
    assert.equal(after(nfv!), ['status'])
    assert.equal([after(vf!), after(mirror!), after(pcap!)], [['status'], ['status'], ['status']])
    assert.equal(primary!.received, ['status', 'status'])
    const { caps } = h.controller.registry.find({ kind: 'nfv', clientId: 1 }).describe()
    assert.equal([caps?.release, caps?.frameBytes, caps?.settled], ['19.11', 32768, true])
  }))

test('a reply split anywhere in its first frame still registers a 2020 nfv', async () => {
  for (const splitAt of [1, 68, 69, 70, 2047, 2048, 2049, 32767]) {
    await withHarness([], async (h) => {
      await peers(h, [[h.controller.secondaryPort, nfv2020(1)]], splitAt)
      const r = await h.api('GET', '/v1/nfvs/1')
      assert.is(r.status, 200, `split at ${splitAt}`)
    })
  }
})

test('the metrics label each process with its era', () =>
  withHarness([{ kind: 'nfv', clientId: 5 }], async (h) => {
    await peers(h, [
      [h.controller.secondaryPort, nfv2020(1)],
      [h.controller.secondaryPort, spaced2020(2, 'vf')],
    ])
    const text = (await h.api('GET', '/metrics')).text
    assert.match(text, 'spp_processes{kind="nfv",era="2020"} 1')
    assert.match(text, 'spp_processes{kind="nfv",era="18.11"} 1')
    assert.match(text, 'spp_processes{kind="vf",era="unknown"} 1')
    await h.api('GET', '/v1/vfs/2')
    assert.match((await h.api('GET', '/metrics')).text, 'spp_processes{kind="vf",era="2020"} 1')
  }))

test.run()
