import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withHarness } from '../helpers/harness.ts'
import { nfv2020, primary2020, spaced2020, connectPeers } from '../helpers/peer-2020.ts'

const peers = connectPeers

test('the topology of 2020 processes lists pcaps, and planning it back changes nothing', () =>
  withHarness([], async (h) => {
    const { primaryPort: p, secondaryPort: s } = h.controller
    const [, , vf] = await peers(h, [
      [p, primary2020],
      [s, nfv2020(1)],
      [s, spaced2020(2, 'vf')],
      [s, spaced2020(4, 'pcap')],
    ])
    const doc = (await h.api('GET', '/v1/topology')).json() as Record<
      string,
      Record<string, unknown>
    >
    assert.equal(Object.keys(doc.pcaps!), ['4'])
    assert.equal((doc.vfs!['2'] as { 'master-lcore': number })['master-lcore'], 1)
    const plan = await h.api('POST', '/v1/topology/plan', doc)
    assert.is(plan.status, 200, plan.text)
    // Nothing to do; the nfv forwards into ring:0, which nothing reads (the classifier has no entry).
    const why =
      'ring:0: nfv:1 patch phy:0 -> ring:0 sends into it and nothing reads it: what is sent there is dropped'
    assert.equal(plan.json(), { steps: [], summary: {}, warnings: [{ port: 'ring:0', why }] })
    // The 18.11 word for the classifier the 2020 vf runs: the same component, nothing to do.
    const desired = {
      vfs: {
        '2': {
          components: [
            {
              core: 2,
              name: 'cls',
              type: 'classifier_mac',
              rx_port: [{ port: 'phy:0' }],
              tx_port: [{ port: 'ring:0' }],
            },
          ],
        },
      },
    }
    const same = await h.api('POST', '/v1/topology/plan', desired)
    assert.equal(same.json(), { steps: [], summary: {} }, same.text)
    assert.equal(
      vf!.received.slice(1).filter((l) => l !== 'status'),
      [],
    )
  }))

test('an 18.11 topology document has no pcaps member', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const doc = (await h.api('GET', '/v1/topology')).json() as object
    // the processes' sections as they were, then the hops' verdicts (GET /v1/topology/paths)
    assert.equal(Object.keys(doc), ['primary', 'nfvs', 'vfs', 'mirrors', 'verdicts'])
  }))

test.run()
