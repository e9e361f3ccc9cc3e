// The handshake: who answered _get_client_id (an 18.11 nfv in decimal, the rest in JSON), and the primary's probe.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeClientId, HANDSHAKES } from '../../src/protocol/handshake.ts'
import { fixedReply } from '../../src/sim/wire.ts'

const json = (text: string) => Buffer.from(text, 'latin1')

test('_get_client_id replies of every kind identify the process', () => {
  const cases: [Buffer, unknown][] = [
    [fixedReply('1'), { kind: 'nfv', clientId: 1, shows: { release: '18.11' } }],
    [fixedReply('12'), { kind: 'nfv', clientId: 12, shows: { release: '18.11' } }],
    [fixedReply('0'), { kind: 'nfv', clientId: 0, shows: { release: '18.11' } }],
    [
      json('{"results":[{"result":"success"}],"client_id":5,"process_type":"nfv"}'),
      { kind: 'nfv', clientId: 5, shows: { release: '18.08.2' } },
    ],
    [
      json('{ "results": [ { "result": "success" } ], "client_id": 4, "process_type": "pcap" }'),
      { kind: 'pcap', clientId: 4, shows: { release: '18.08.2' } },
    ],
    [
      json('{ "results": [ { "result": "success" } ], "client_id": 2, "process_type": "vf" }'),
      { kind: 'vf', clientId: 2, shows: { release: '18.11' } },
    ],
    [
      json('{ "results": [ { "result": "success" } ], "client_id": 3, "process_type": "mirror" }'),
      { kind: 'mirror', clientId: 3, shows: { release: '18.11' } },
    ],
  ]
  for (const [frame, expected] of cases) {
    const id = decodeClientId(frame)
    assert.ok(id.ok, frame.toString('latin1').slice(0, 40))
    assert.equal(id.ok && id.value, expected)
  }
})

test('undecodable _get_client_id replies are typed failures', () => {
  for (const frame of [
    fixedReply(''),
    fixedReply('abc'),
    fixedReply('99999999'),
    Buffer.from([0xff, 0xfe, 0]),
    json(
      '{ "results": [ { "result": "error", "error_details": { "message": "bad message format" } } ] }',
    ),
    json('{ "results": [ { "result": "success" } ], "client_id": 2, "process_type": "vm" }'),
    json('{ "client_id": 2 '),
  ]) {
    assert.is(
      decodeClientId(frame).ok,
      false,
      JSON.stringify(frame.toString('latin1').slice(0, 40)),
    )
  }
})

test('the primary is identified only by a reply that is a primary status', () => {
  const { line, decode } = HANDSHAKES.primary
  assert.is(line, 'status')
  assert.equal(decode(fixedReply('{"phy_ports": [], "ring_ports": []}')), {
    ok: true,
    value: { kind: 'primary', shows: { release: '18.11' } },
  })
  assert.is(decode(fixedReply('1')).ok, false, 'an nfv answering on the primary port')
  assert.is(decode(fixedReply('{"phy_ports": []}')).ok, false)
  assert.is(HANDSHAKES.secondary.line, '_get_client_id')
})

test.run()
