// The nfv routes over a loopback socket: 404, then the body (400, nothing sent), then the command; the
// grammar of the nfv's release, learnt with one status read where it has not told yet.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fixedReply } from '../../../src/sim/wire.ts'
import { withFakeApp, type FakeProcess } from '../../helpers/fake-app.ts'
import { NFV_STATUS, nfvId, pad } from '../../helpers/peer-2020.ts'

const OLD_STATUS = '{"client-id":1,"status":"idling","ports":["phy:0"],"patches":[]}'
const nfv1811: FakeProcess = {
  kind: 'nfv',
  clientId: 1,
  handshake: fixedReply('1'),
  answer: (line) => fixedReply(line === 'status' ? OLD_STATUS : line.replaceAll(' ', '\0')),
}
/** A 2020 nfv whose replies are padded to `frame` bytes, not measured until its status. */
const nfv2020 = (frame: number): FakeProcess => ({
  kind: 'nfv',
  clientId: 1,
  handshake: nfvId(1), // the frame reader cuts the JSON off its padding
  answer: (line) =>
    line === 'status'
      ? { reply: pad(NFV_STATUS, frame), frameBytes: frame }
      : pad(`{"result":"succeeded","command":"${line.split(' ')[0]}"}`, frame),
})

test('an 18.11 nfv: 404 first, then a body in its own grammar (no memif), then the command', () =>
  withFakeApp([nfv1811], async ({ request, sent }) => {
    assert.is((await request('PUT', '/v1/nfvs/9/ports', { action: 'add', port: 'x' })).status, 404)
    const memif = await request('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'memif:0' })
    assert.is(memif.status, 400)
    assert.match(
      memif.text,
      /^invalid key\(port\): "memif:0" \(expected TYPE:N with TYPE one of ring, vhost, pcap, nullpmd and/,
    )
    assert.equal(sent(0), [], 'nothing sent, not even a status')
    assert.is(
      (await request('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })).status,
      204,
    )
    assert.equal(sent(0), ['add ring:0'])
  }))

test('a 2020 nfv not measured yet: a body bad in every release is refused before anything is sent', () =>
  withFakeApp([nfv2020(32768)], async ({ request, sent }) => {
    const r = await request('PUT', '/v1/nfvs/1/patches', { src: 'phy:0 nq 1', dst: 'ring:0' })
    assert.is(r.status, 400)
    assert.match(r.text, /^invalid key\(src\)/)
    assert.equal(sent(0), [])
  }))

test('a memif port for a 2020 nfv is judged after one status read: 19.11 takes it, 19.08 does not', async () => {
  await withFakeApp([nfv2020(32768)], async (long) => {
    const ok = await long.request('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'memif:0' })
    assert.is(ok.status, 204, ok.text)
    assert.equal(long.sent(0), ['status', 'add memif:0'])
  })
  await withFakeApp([nfv2020(2048)], async (short) => {
    const memif = { action: 'add', port: 'memif:0' }
    const refused = await short.request('PUT', '/v1/nfvs/1/ports', memif)
    assert.is(refused.status, 400)
    assert.match(
      refused.text,
      /^invalid key\(port\): "memif:0" \(expected TYPE:N with TYPE one of ring, vhost, pcap, nullpmd and/,
    )
    assert.equal(short.sent(0), ['status'])
    const queue = await short.request('PUT', '/v1/nfvs/1/patches', {
      src: 'phy:0nq1',
      dst: 'ring:0',
    })
    assert.is(queue.status, 400, 'settled: no second read')
    assert.equal(short.sent(0), ['status'])
  })
})

test.run()
