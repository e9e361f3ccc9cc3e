// The primary routes over a loopback socket: the body first (400), then its release (405, nothing
// sent), then the command; flow rules need a 19.11 primary.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fixedReply } from '../../../src/sim/wire.ts'
import { withFakeApp, type FakeProcess } from '../../helpers/fake-app.ts'
import { pad, PRIMARY_STATUS } from '../../helpers/peer-2020.ts'

const primary1811: FakeProcess = {
  kind: 'primary',
  handshake: fixedReply('{"phy_ports": [], "ring_ports": []}'),
  answer: (line) => fixedReply(line),
}
const FLOW = '{"result": "success", "message": "Flow rule #0 created", "rule_id": "0"}'
/** A 2020 primary padding to `frame` bytes (its status shows master-lcore: 19.08 or later). */
const primary2020 = (frame: number): FakeProcess => ({
  kind: 'primary',
  handshake: pad(PRIMARY_STATUS, frame),
  answer: (line) =>
    line === 'status' ? { reply: pad(PRIMARY_STATUS, frame), frameBytes: frame } : pad(FLOW, frame),
})
const RULE = { rule: { direction: 'ingress', pattern: ['eth'], actions: ['queue index 1'] } }

test('an 18.11 primary: a route its release lacks is a 405 before its body is read; nothing sent', () =>
  withFakeApp([primary1811], async ({ request, sent }) => {
    const lacked: [string, string, unknown, string][] = [
      ['PUT', '/v1/primary/forward', { action: 'go' }, '19.08 of November 2019'],
      ['PUT', '/v1/primary/forward', { action: 'start' }, '19.08 of November 2019'],
      ['PUT', '/v1/primary/patches', { src: 'phy:0' }, '19.08 of November 2019'],
      ['DELETE', '/v1/primary/patches', undefined, '19.08 of November 2019'],
      ['PUT', '/v1/primary/ports', { action: 'add', port: 'ring:0' }, '18.08.4 of October 2019'],
      ['PUT', '/v1/primary/launch', {}, '18.08.2 of March 2019'],
      ['POST', '/v1/primary/flow_rules/port_id/0', {}, '19.11 of April 2020'],
    ]
    for (const [method, path, body, release] of lacked) {
      const r = await request(method, path, body)
      assert.is(r.status, 405, `${method} ${path}: ${r.text}`)
      assert.is(r.headers.get('allow'), '')
      assert.is(r.headers.get('x-error-code'), 'NOT_IN_RELEASE')
      const what = path.startsWith('/v1/primary/flow') ? 'flow rules' : `${method} ${path}`
      assert.is(
        r.text,
        `${what} is not supported by the release of the primary (SPP 18.11 of November 2018); it needs SPP ${release} or later\n`,
      )
    }
    assert.equal(sent(0), [])
  }))

test('flow rules: a 19.08 primary is read once to measure its replies, then refused', () =>
  withFakeApp([primary2020(2048)], async ({ request, sent }) => {
    const r = await request('POST', '/v1/primary/flow_rules/port_id/0', RULE)
    assert.is(r.status, 405)
    assert.match(
      r.text,
      /\(SPP 19\.08 of November 2019\); it needs SPP 19\.11 of April 2020 or later\n$/,
    )
    assert.equal(sent(0), ['status'])
    assert.is(
      (
        await request('PUT', '/v1/primary/ports', {
          action: 'add',
          port: 'pipe:0',
          rx: 'ring:0',
          tx: 'ring:1',
        })
      ).status,
      405,
    )
    assert.equal(sent(0), ['status'], 'settled: no second read')
  }))

test('flow rules: a 19.11 primary is sent the rule and its reply is the answer', () =>
  withFakeApp([{ ...primary2020(32768), frameBytes: 32768 }], async ({ request, sent }) => {
    const r = await request('POST', '/v1/primary/flow_rules/port_id/0', RULE)
    assert.is(r.status, 200, r.text)
    assert.equal(JSON.parse(r.text), JSON.parse(FLOW))
    assert.equal(sent(0), [
      'flow create phy:0 ingress pattern eth / end actions queue index 1 / end',
    ])
  }))

test("a pipe's missing ring is named, as the key it is; a ring where none is taken too", () =>
  withFakeApp([{ ...primary2020(32768), frameBytes: 32768 }], async ({ request, sent }) => {
    const cases: [object, string][] = [
      [
        { action: 'add', port: 'pipe:1', rx: 'ring:8' },
        'key(tx) required: adding a pipe needs its rx and tx rings.',
      ],
      [
        { action: 'add', port: 'pipe:1', tx: 'ring:8' },
        'key(rx) required: adding a pipe needs its rx and tx rings.',
      ],
      [
        { action: 'add', port: 'pipe:1' },
        'key(rx) required: adding a pipe needs its rx and tx rings.',
      ],
      [
        { action: 'del', port: 'pipe:1', tx: 'ring:8' },
        'invalid key(tx): "ring:8" (only adding a pipe takes rx and tx)',
      ],
      [{ action: 'add' }, 'key(port) required.'],
    ]
    for (const [body, text] of cases) {
      const r = await request('PUT', '/v1/primary/ports', body)
      assert.is(r.status, 400, JSON.stringify(body))
      assert.is(r.text, `${text}\n`)
    }
    assert.equal(sent(0), [])
  }))

test.run()
