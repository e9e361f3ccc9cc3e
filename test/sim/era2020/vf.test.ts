// The 2020 vf and mirror models against spp-protocol-2020 §3.2, §6 and §7, byte for byte.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { VfModel } from '../../../src/sim/vf-model.ts'
import { RULES_2020 as rules } from '../../../src/sim/vf-rules.ts'

const text = (reply: Buffer | undefined) => reply!.toString('latin1')
const SUCCESS = '{ "results": [ { "result": "success" } ] }'
const error = (message: string) =>
  `{ "results": [ { "result": "error", "error_details": { "message": "${message}" } } ] }`
const NONE = '"vlan": { "operation": "none", "id": 0, "pcp": 0 }'

test('vf handshake and a fresh status: string indexes, master-lcore, unpadded spaced JSON', () => {
  const vf = new VfModel({ clientId: 1, cores: [2, 3], rules })
  assert.is(
    text(vf.handle('_get_client_id').reply),
    '{ "results": [ { "result": "success" } ], "client_id": 1, "process_type": "vf" }',
  )
  assert.is(
    text(vf.handle('status').reply),
    '{ "results": [ { "result": "success" } ], "info": { "client-id": 1, "phy": [ "0", "1" ], "vhost": [  ], "ring": [  ], "master-lcore": 1, "core": [ { "core": 2, "type": "unuse" }, { "core": 3, "type": "unuse" } ], "classifier_table": [  ] } }',
  )
})

// The table is ordered as P §4.5.3 says (ascending vid, mac entries last); §6.1 lists it unordered.
test('vf status with a classifier, vlan tags and table entries, as the delta document shows', () => {
  const vf = new VfModel({ clientId: 1, cores: [2, 3], rules })
  for (const line of [
    'component start cls 2 classifier',
    'port add phy:0 rx cls',
    'port add ring:0 tx cls',
    'port add ring:1 tx cls add_vlantag 100 3',
    'classifier_table add mac FA:16:3E:7D:CC:35 ring:0',
    'classifier_table add vlan 100 default ring:1',
  ])
    assert.is(text(vf.handle(line).reply), SUCCESS, line)
  assert.is(
    text(vf.handle('status').reply),
    `{ "results": [ { "result": "success" } ], "info": { "client-id": 1, "phy": [ "0", "1" ], "vhost": [  ], "ring": [ "0", "1" ], "master-lcore": 1, "core": [ { "core": 2, "name": "cls", "type": "classifier", "rx_port": [ { "port": "phy:0", ${NONE} } ], "tx_port": [ { "port": "ring:0", ${NONE} }, { "port": "ring:1", "vlan": { "operation": "add", "id": 100, "pcp": 3 } } ] }, { "core": 3, "type": "unuse" } ], "classifier_table": [ { "type": "vlan", "value": "100/default", "port": "ring:1" }, { "type": "mac", "value": "FA:16:3E:7D:CC:35", "port": "ring:0" } ] } }`,
  )
})

test('vf refuses with the 2020 texts, and checks port limits before adding', () => {
  const vf = new VfModel({ phyQueues: [1, 2], cores: [2, 3], rules })
  const cases: [string, string][] = [
    ['component start fw1 2 forward', 'success'],
    ['component start m1 2 merge', 'success'], // one core may mix types now
    ['component start c1 3 classifier_mac', 'Invalid value (component type)'],
    ['component start fw1 3 forward', 'Invalid value (component name)'],
    ['component start fw2 200 forward', 'Invalid value (core)'],
    ['component start fw2 9 forward', 'error occur'],
    ['component restart fw1', 'Invalid value (action)'],
    ['component start', 'Wrong message format'],
    ['status now', 'Wrong message format'],
    ['_get_client_id 1', 'Wrong message format'],
    ['exit now', 'Wrong message format'],
    ['a b c d e f g h i', 'Wrong message format'],
    ['bogus', 'Invalid value (command)'],
    ['port add ring:0 rx fw1', 'success'],
    ['port add ring:1 rx fw1', 'error occur'], // forward takes one rx port
    ['port add ring:0 rx m1', 'Invalid value (port rxtx)'],
    ['port add ring:2 up fw1', 'Invalid value (port rxtx)'],
    ['port add ring:2 tx nobody', 'Invalid value (component name)'],
    ['port add phy:0nq0 tx fw1', 'Invalid value (port)'], // single queue: no nq form
    ['port add phy:1 tx fw1', 'Invalid value (port)'], // two queues: the nq form is required
    ['port add phy:33 tx fw1', 'Invalid value (port)'],
    ['port add phy:1nq2 tx fw1', 'Invalid value (port rxtx)'],
    ['port add phy:1nq1 tx fw1', 'success'],
    ['port add ring:2 tx fw1 add_vlantag 5000 1', 'Invalid value (port vid)'],
    ['port add ring:2 tx fw1 add_vlantag 5 9', 'Invalid value (port pcp)'],
    ['port move ring:0 rx fw1', 'Invalid value (action)'],
    ['classifier_table add mac 11:22 ring:0', 'Invalid value (mac address)'],
    ['classifier_table add ip 1 ring:0', 'Invalid value (type)'],
    ['classifier_table add mac', 'Wrong message format'],
    ['component stop unknown', 'success'],
  ]
  for (const [line, expected] of cases) {
    const reply = text(vf.handle(line).reply)
    assert.is(reply, expected === 'success' ? SUCCESS : error(expected), line)
  }
  const status = text(vf.handle('status').reply)
  assert.ok(status.includes('"phy": [ "0", "1 nq 0", "1 nq 1" ]'), status)
  assert.ok(status.includes(`"tx_port": [ { "port": "phy:1 nq 1", ${NONE} } ]`), status)
})

test('vf and mirror answer exit with success, then end', () => {
  for (const kind of ['vf', 'mirror'] as const) {
    const answer = new VfModel({ kind, rules }).handle('exit')
    assert.is(text(answer.reply), SUCCESS)
    assert.ok(answer.exit)
  }
})

test('mirror: its status has no classifier table; classifier_table succeeds and does nothing', () => {
  const mirror = new VfModel({ kind: 'mirror', clientId: 3, phyQueues: [1], cores: [2, 3], rules })
  assert.is(
    text(mirror.handle('_get_client_id').reply),
    '{ "results": [ { "result": "success" } ], "client_id": 3, "process_type": "mirror" }',
  )
  for (const line of [
    'component start mr1 2 mirror',
    'port add ring:0 rx mr1',
    'port add ring:1 tx mr1',
    'port add ring:2 tx mr1',
    'classifier_table add mac 11:22:33:44:55:66 ring:9',
  ])
    assert.is(text(mirror.handle(line).reply), SUCCESS, line)
  assert.is(text(mirror.handle('port add ring:3 tx mr1').reply), error('error occur'))
  assert.is(
    text(mirror.handle('component start c 3 classifier').reply),
    error('Invalid value (component type)'),
  )
  assert.is(
    text(mirror.handle('status').reply),
    `{ "results": [ { "result": "success" } ], "info": { "client-id": 3, "phy": [ "0" ], "vhost": [  ], "ring": [ "0", "1", "2" ], "master-lcore": 1, "core": [ { "core": 2, "name": "mr1", "type": "mirror", "rx_port": [ { "port": "ring:0", ${NONE} } ], "tx_port": [ { "port": "ring:1", ${NONE} }, { "port": "ring:2", ${NONE} } ] }, { "core": 3, "type": "unuse" } ] } }`,
  )
})

test.run()
