// topology apply over a loopback socket: a failed step answers with that step's own status and error
// code; an apply already running, a stale ETag and a refused plan are typed errors (409, 412, 422).
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fixedReply } from '../../../src/sim/wire.ts'
import { withFakeApp, type FakeProcess } from '../../helpers/fake-app.ts'

const STATUS = fixedReply('{"client-id":1,"status":"idling","ports":["phy:0"],"patches":[]}')
/** An 18.11 nfv that answers its status and, with `leaves`, closes right after it. */
const nfv = (leaves: boolean): FakeProcess => ({
  kind: 'nfv',
  clientId: 1,
  handshake: fixedReply('1'),
  answer: (line) => (line === 'status' ? { reply: STATUS, close: leaves } : fixedReply(line)),
})
const RUNNING = { nfvs: { '1': { status: 'Running' } } }

test('a step whose process is gone is answered 404 with its code, not 500', () =>
  withFakeApp([nfv(true)], async ({ request }) => {
    const r = await request('POST', '/v1/topology/apply', RUNNING)
    assert.is(r.status, 404, r.text)
    const { failed, done } = JSON.parse(r.text) as { failed: Record<string, unknown>; done: [] }
    assert.equal([failed.number, failed.status, failed.code], [1, 404, 'PROCESS_NOT_FOUND'])
    assert.equal(
      [failed.path, failed.error, done],
      [
        '/v1/nfvs/1/forward',
        'sec_id 1 not found.\nNo nfv with client id 1 is connected; connected: none',
        [],
      ],
    )
  }))

test('a stale If-Match is a 412 and a refused plan a 422, as text with their codes', () =>
  withFakeApp([nfv(false)], async ({ request }) => {
    const stale = await request('POST', '/v1/topology/apply', RUNNING, { 'If-Match': '"not-it"' })
    assert.is(stale.status, 412)
    assert.is(stale.headers.get('x-error-code'), 'TOPOLOGY_CHANGED')
    assert.match(stale.text, /^the live configuration changed since that ETag/)
    const refused = await request('POST', '/v1/topology/plan', {
      nfvs: { '7': { status: 'Idle' } },
    })
    assert.is(refused.status, 422)
    assert.is(
      refused.text,
      'refused key(nfvs.7): no nfv with client id 7 is connected; connected: nfv:1\n',
    )
  }))

test.run()
