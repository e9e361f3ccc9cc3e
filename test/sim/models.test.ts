import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { NfvModel } from '../../src/sim/nfv-model.ts'
import { PrimaryModel } from '../../src/sim/primary-model.ts'
import { VfModel } from '../../src/sim/vf-model.ts'

const text = (reply: Buffer | undefined) => reply!.toString('latin1')
const cstr = (reply: Buffer | undefined) => text(reply).replace(/\0+$/, '')
const message = (model: VfModel, line: string) => {
  const reply = text(model.handle(line).reply)
  return /"message": "([^"]*)"/.exec(reply)?.[1] ?? 'success'
}

test('nfv echoes commands with separators and port-id colons turned into NULs, 2048 bytes each', () => {
  const nfv = new NfvModel({ clientId: 1 })
  const cases: [string, string][] = [
    ['forward', 'forward'],
    ['add ring:0', 'add\0ring\u00000'],
    ['del vhost:1', 'del\0vhost\u00001'],
    ['patch ring:0 vhost:1', 'patch\0ring\u00000\0vhost\u00001'],
    ['patch reset', 'patch\0reset'],
  ]
  for (const [line, echo] of cases) {
    const reply = nfv.handle(line).reply!
    assert.is(reply.length, 2048)
    assert.is(cstr(reply), echo)
  }
  assert.is(cstr(nfv.handle('_get_client_id').reply), '1')
})

test('nfv: add phy overwrites port slot 0 as the real process does; del stops forwarding', () => {
  const nfv = new NfvModel()
  nfv.handle('forward')
  nfv.handle('add phy:5')
  nfv.handle('del ring:9')
  assert.is(
    cstr(nfv.handle('status').reply),
    '{"client-id":1,"status":"idling","ports":["udf","phy:1"],"patches":[]}',
  )
})

test('primary status has the exact byte layout of spp_primary, and says it is the simulator', () => {
  const primary = new PrimaryModel({ phyPorts: 1, rings: 1 })
  assert.is(
    cstr(primary.handle('status').reply),
    '{"phy_ports": [{"id": 0, "eth": "56:48:4f:53:54:00", "rx": 0, "tx": 0, "tx_drop": 0}], "ring_ports": [{"id": 0, "rx": 0, "rx_drop": 0, "tx": 0, "tx_drop": 0}], "simulator": "spp-sim"}',
  )
  assert.ok(primary.handle('exit').exit)
})

test('vf replies have the exact spacing of spp_vf, empty arrays included', () => {
  const vf = new VfModel({ clientId: 1, cores: [2, 3] })
  assert.is(
    text(vf.handle('_get_client_id').reply),
    '{ "results": [ { "result": "success" } ], "client_id": 1, "process_type": "vf" }',
  )
  assert.is(
    text(vf.handle('status').reply),
    '{ "results": [ { "result": "success" } ], "info": { "client-id": 1, "phy": [ 0, 1 ], "vhost": [  ], "ring": [  ], "core": [ { "core": 2, "type": "unuse" }, { "core": 3, "type": "unuse" } ], "classifier_table": [  ] } }',
  )
  assert.is(text(vf.handle('component stop x').reply), '{ "results": [ { "result": "success" } ] }')
  assert.is(
    text(vf.handle('bogus').reply),
    '{ "results": [ { "result": "error", "error_details": { "message": "bad value(command)" } } ] }',
  )
  assert.is(vf.handle('exit').reply, undefined)
})

test('vf enforces the real rules with the real messages', () => {
  const vf = new VfModel()
  const cases: [string, string][] = [
    ['component start fw1 2 forward', 'success'],
    ['component start fw1 3 forward', 'bad value(component name)'],
    ['component start fw2 200 forward', 'bad value(core)'],
    ['component start fw2 2 merge', 'bad value(component type)'],
    ['component start fw2 9 forward', 'error occur'],
    ['component start fw2 2 mirror', 'bad value(component type)'],
    ['component restart fw1', 'bad value(action)'],
    ['port add ring:0 rx fw1', 'success'],
    ['port add ring:0 rx fw1', 'bad value(port rxtx)'],
    ['port add pcap:0 rx fw1', 'bad value(port)'],
    ['port add ring:1 rx nosuch', 'bad value(component name)'],
    ['port add ring:1 rx fw1 add_vlantag 5000 0', 'bad value(port vid)'],
    ['port add ring:1 rx fw1 add_vlantag 10 9', 'bad value(port pcp)'],
    ['port add ring:1 rx fw1 none', 'bad value(port vlan operation)'],
    ['port add ring:1 rx fw1', 'error occur'], // a forward has at most one rx port
    ['port del ring:1 rx fw1', 'success'],
    ['port del ring:5 rx fw1', 'success'],
    ['classifier_table add mac FA:16:3E:7D:CC:35 ring:0', 'success'],
    ['classifier_table add mac 11:22:33:44:55:66 ring:0', 'bad value(port)'],
    ['classifier_table del mac 11:22:33:44:55:66 ring:0', 'bad value(port)'],
    ['classifier_table add mac FA:16:3E:7D:CC:35 ring:7', 'bad value(port)'],
    ['classifier_table add vlan 5000 FA:16:3E:7D:CC:35 ring:1', 'bad value(vlan id)'],
    ['classifier_table add mac 00:11:22:33:44:55:66 ring:1', 'bad value(mac address)'],
    ['classifier_table add ether FA:16:3E:7D:CC:35 ring:0', 'bad value(type)'],
    ['classifier_table add mac FA:16:3E:7D:CC:35', 'bad message format'],
    ['status extra', 'bad message format'],
    ['a b c d e f g h i', 'bad message format'],
  ]
  for (const [line, expected] of cases) assert.is(message(vf, line), expected, line)
})

test('vf: a ring the primary lacks breaks every later change; the main lcore hangs the process', () => {
  const vf = new VfModel({ rings: 8 })
  vf.handle('component start fw1 2 forward')
  assert.is(message(vf, 'port add ring:20 tx fw1'), 'error occur')
  assert.is(message(vf, 'component start fw2 3 forward'), 'error occur')
  assert.ok(new VfModel().handle('component start m 1 forward').hang)
})

test('mirror: only the mirror type, no classifier table in status', () => {
  const mirror = new VfModel({ kind: 'mirror', clientId: 3 })
  assert.is(message(mirror, 'component start x 2 forward'), 'bad value(component type)')
  assert.is(message(mirror, 'component start mr1 2 mirror'), 'success')
  assert.not.match(text(mirror.handle('status').reply), /classifier_table/)
})

test.run()
