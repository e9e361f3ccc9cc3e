// Decoding each command's reply: nfv, primary, vf and mirror status and echoes, vf errors.
import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { nfvCommands } from '../../src/protocol/kinds/nfv.ts'
import { primaryCommands } from '../../src/protocol/kinds/primary.ts'
import { mirrorCommands } from '../../src/protocol/kinds/mirror.ts'
import { vfCommands } from '../../src/protocol/kinds/vf.ts'
import { fixedReply } from '../../src/sim/wire.ts'

const json = (text: string) => Buffer.from(text, 'latin1')

test('nfv status: the wire words running/idling become Running/Idle', () => {
  const reply = fixedReply(
    '{"client-id":1,"status":"running","ports":["phy:0","ring:0"],"patches":[{"src":"phy:0","dst":"ring:0"}]}',
  )
  assert.equal(nfvCommands.status().decode(reply), {
    ok: true,
    value: {
      'client-id': 1,
      status: 'Running',
      ports: ['phy:0', 'ring:0'],
      patches: [{ src: 'phy:0', dst: 'ring:0' }],
    },
  })
  const idle = nfvCommands
    .status()
    .decode(fixedReply('{"client-id":1,"status":"idling","ports":[],"patches":[]}'))
  assert.is(idle.ok && idle.value.status, 'Idle')
})

test('nfv status replies that are not the expected JSON fail as BAD_REPLY', () => {
  for (const text of [
    '',
    '{',
    '{"client-id":1,"status":"paused","ports":[],"patches":[]}',
    '[]',
    'add\0ring\u00000',
  ]) {
    const decoded = nfvCommands.status().decode(fixedReply(text))
    assert.is(decoded.ok, false, text)
    assert.is(!decoded.ok && decoded.code, 'BAD_REPLY')
  }
})

test('primary status is returned as the process reports it', () => {
  const text =
    '{"phy_ports": [{"id": 0, "eth": "56:48:4f:53:54:00", "rx": 10, "tx": 7, "tx_drop": 0}], "ring_ports": [{"id": 0, "rx": 0, "rx_drop": 0, "tx": 0, "tx_drop": 0}]}'
  assert.equal(primaryCommands.status().decode(fixedReply(text)), {
    ok: true,
    value: JSON.parse(text) as unknown,
  })
})

test('echoed nfv and primary replies are accepted whatever they hold', () => {
  assert.ok(nfvCommands.addPort('ring:0').decode(fixedReply('add\0ring\u00000')).ok)
  assert.ok(primaryCommands.clear().decode(fixedReply('{"status": "cleared"}')).ok)
})

const VF_STATUS =
  '{ "results": [ { "result": "success" } ], "info": { "client-id": 1, "phy": [ 0, 1 ], "vhost": [  ], "ring": [ 0, 1, 2 ], "core": [ { "core": 2, "name": "cls", "type": "classifier_mac", "rx_port": [ { "port": "phy:0", "vlan": { "operation": "none", "id": 0, "pcp": 0 } } ], "tx_port": [ { "port": "ring:0", "vlan": { "operation": "none", "id": 0, "pcp": 0 } }, { "port": "ring:1", "vlan": { "operation": "add", "id": 100, "pcp": 3 } } ] }, { "core": 3, "name": "fwd1", "type": "forward", "rx_port": [ { "port": "ring:0", "vlan": { "operation": "none", "id": 0, "pcp": 0 } } ], "tx_port": [ { "port": "vhost:0", "vlan": { "operation": "none", "id": 0, "pcp": 0 } } ] }, { "core": 4, "type": "unuse" }, { "core": 5, "name": "mgr", "type": "merge", "rx_port": [ { "port": "ring:1", "vlan": { "operation": "none", "id": 0, "pcp": 0 } }, { "port": "ring:2", "vlan": { "operation": "del", "id": 0, "pcp": 0 } } ], "tx_port": [ { "port": "phy:1", "vlan": { "operation": "none", "id": 0, "pcp": 0 } } ] } ], "classifier_table": [ { "type": "mac", "value": "FA:16:3E:7D:CC:35", "port": "ring:0" }, { "type": "vlan", "value": "100/default", "port": "ring:1" } ] } }'
// The REST body SPP's controller built from that reply (protocol document 4.5.2).
const VF_REST =
  '{"client-id": 1, "ports": ["phy:0", "phy:1", "ring:0", "ring:1", "ring:2"], "components": [{"core": 2, "name": "cls", "type": "classifier_mac", "rx_port": [{"port": "phy:0", "vlan": {"operation": "none", "id": 0, "pcp": 0}}], "tx_port": [{"port": "ring:0", "vlan": {"operation": "none", "id": 0, "pcp": 0}}, {"port": "ring:1", "vlan": {"operation": "add", "id": 100, "pcp": 3}}]}, {"core": 3, "name": "fwd1", "type": "forward", "rx_port": [{"port": "ring:0", "vlan": {"operation": "none", "id": 0, "pcp": 0}}], "tx_port": [{"port": "vhost:0", "vlan": {"operation": "none", "id": 0, "pcp": 0}}]}, {"core": 4, "type": "unuse"}, {"core": 5, "name": "mgr", "type": "merge", "rx_port": [{"port": "ring:1", "vlan": {"operation": "none", "id": 0, "pcp": 0}}, {"port": "ring:2", "vlan": {"operation": "del", "id": 0, "pcp": 0}}], "tx_port": [{"port": "phy:1", "vlan": {"operation": "none", "id": 0, "pcp": 0}}]}], "classifier_table": [{"type": "mac", "value": "FA:16:3E:7D:CC:35", "port": "ring:0"}, {"type": "vlan", "value": "100/default", "port": "ring:1"}]}'

test('vf status becomes the REST body SPP built: ports phy, vhost, ring; components verbatim', () => {
  assert.equal(vfCommands.status().decode(json(VF_STATUS)), {
    ok: true,
    value: JSON.parse(VF_REST) as unknown,
  })
})

test('an 18.11 mirror status, as recorded from the real spp_mirror: ports keep their vlan', () => {
  const recorded = readFileSync(
    new URL('../fixtures/real-spp/real-d5c6c97.jsonl', import.meta.url),
    'utf8',
  )
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { proc: string; reply: string | null })
    .find((e) => e.proc === 'mirror:3' && e.reply?.includes('"name": "mr1"'))!.reply!
  const none = { operation: 'none', id: 0, pcp: 0 }
  assert.equal(mirrorCommands.status().decode(json(recorded)), {
    ok: true,
    value: {
      'client-id': 3,
      ports: ['phy:0', 'phy:1', 'ring:5', 'ring:6', 'ring:7', 'ring:8'],
      components: [
        {
          core: 2,
          name: 'mr1',
          type: 'mirror',
          rx_port: [{ port: 'ring:5', vlan: none }],
          tx_port: [
            { port: 'ring:6', vlan: none },
            { port: 'ring:7', vlan: none },
          ],
        },
      ],
    },
  })
})

test('a vf error reply is the process rejecting the command, with its message', () => {
  for (const message of [
    'bad value(component name)',
    'error occur',
    'bad message format',
    'bad value(port rxtx)',
  ]) {
    const reply = json(
      `{ "results": [ { "result": "error", "error_details": { "message": "${message}" } } ] }`,
    )
    assert.equal(vfCommands.componentStop('a').decode(reply), {
      ok: false,
      code: 'COMMAND_REJECTED',
      message: `command error: ${message}`,
    })
    assert.equal(vfCommands.status().decode(reply), {
      ok: false,
      code: 'COMMAND_REJECTED',
      message: `command error: ${message}`,
    })
  }
})

test('vf replies without results, or status without info, fail as BAD_REPLY', () => {
  for (const text of [
    '{ }',
    '{ "results": [  ] }',
    '{ "results": [ { "result": "success" } ] }',
    '{ "results": "x" }',
    '{ "a": ',
  ]) {
    const decoded = vfCommands.status().decode(json(text))
    assert.is(!decoded.ok && decoded.code, 'BAD_REPLY', text)
  }
})

test('a status that comes back byte for byte the same gives the value decoded before, not a new one', () => {
  const text = '{"client-id":1,"status":"idling","ports":["phy:0"],"patches":[]}'
  const first = nfvCommands.status().decode(fixedReply(text))
  const again = nfvCommands.status().decode(fixedReply(text)) // another buffer, the same bytes
  assert.ok(first.ok && again.ok)
  assert.is(again.value, first.value)
  const changed = nfvCommands.status().decode(fixedReply(text.replace('idling', 'running')))
  assert.ok(changed.ok)
  assert.is(changed.value.status, 'Running')
  const vf = (cores: string) =>
    json(
      `{ "results": [ { "result": "success" } ], "info": { "client-id": 2, "phy": [ 0 ], "vhost": [  ], "ring": [  ], "core": [ ${cores} ], "classifier_table": [  ] } }`,
    )
  const idle = vfCommands.status().decode(vf('{ "core": 2, "type": "unuse" }'))
  assert.ok(idle.ok)
  const idleAgain = vfCommands.status().decode(vf('{ "core": 2, "type": "unuse" }'))
  assert.ok(idleAgain.ok)
  assert.is(idleAgain.value, idle.value)
  const busy = vfCommands
    .status()
    .decode(vf('{ "core": 2, "name": "fw1", "type": "forward", "rx_port": [  ], "tx_port": [  ] }'))
  assert.ok(busy.ok)
  assert.is(busy.value.components[0]?.name, 'fw1')
})

test.run()
