// The vf and mirror routes over a loopback socket: exit needs a release that answers it, and a
// classifier is sent in the vf's own word, each learnt from one status read.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withFakeApp, type FakeProcess } from '../../helpers/fake-app.ts'
import { spacedId, SUCCESS, VF_STATUS } from '../../helpers/peer-2020.ts'

const OLD_STATUS =
  '{ "results": [ { "result": "success" } ], "info": { "client-id": 2, "phy": [ 0 ], "vhost": [  ], "ring": [  ], "core": [ { "core": 3, "type": "unuse" } ], "classifier_table": [  ] } }'
const vf = (status: string): FakeProcess => ({
  kind: 'vf',
  clientId: 2,
  handshake: spacedId(2, 'vf'),
  answer: (line) => (line === 'status' ? status : SUCCESS),
})

test('DELETE of an 18.11 vf is a 405 after one status read; a 2020 vf is sent exit', async () => {
  await withFakeApp([vf(OLD_STATUS)], async (old) => {
    const r = await old.request('DELETE', '/v1/vfs/2')
    assert.is(r.status, 405)
    assert.match(
      r.text,
      /^DELETE \/v1\/vfs\/\{client_id\} is not supported by the release of vf 2 \(SPP 18\.11 of November 2018\); it needs SPP 18\.08\.2 of March 2019 or later\n$/,
    )
    assert.equal(old.sent(0), ['status'])
  })
  await withFakeApp([vf(VF_STATUS)], async (now) => {
    assert.is((await now.request('DELETE', '/v1/vfs/2')).status, 204)
    assert.equal(now.sent(0), ['status', 'exit'])
  })
})

test("either classifier word is sent as the vf's release spells it", async () => {
  for (const [status, word] of [
    [OLD_STATUS, 'classifier_mac'],
    [VF_STATUS, 'classifier'],
  ] as const) {
    await withFakeApp([vf(status)], async ({ request, sent }) => {
      for (const type of ['classifier', 'classifier_mac']) {
        const r = await request('POST', '/v1/vfs/2/components', { name: 'c', core: 3, type })
        assert.is(r.status, 204, r.text)
        assert.is((await request('DELETE', '/v1/vfs/2/components/c')).status, 204)
      }
      const [start, stop] = [`component start c 3 ${word}`, 'component stop c']
      assert.equal(sent(0), ['status', start, stop, start, stop])
    })
  }
})

test.run()
