import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { classifierWordOf, learnProfile, primaryEra } from '../../src/protocol/era.ts'
import { nfvCommands } from '../../src/protocol/kinds/nfv.ts'
import { paddedResult } from '../../src/protocol/padded-result.ts'
import { pcapCommands } from '../../src/protocol/kinds/pcap.ts'
import { primary2020Commands } from '../../src/protocol/kinds/primary-2020.ts'
import { mirrorCommands, vfCommands } from '../../src/protocol/kinds/vf.ts'
import { effectOf } from '../../src/protocol/command.ts'
import { MIRROR_STATUS, pad, PCAP_STATUS, VF_STATUS } from '../helpers/peer-2020.ts'

test('primary/nfv results: an echo is done, succeeded is done, failed is the process refusing', () => {
  const cases: [Buffer, boolean][] = [
    [pad('add\0ring:0', 2048), true], // 18.11 echo
    [pad('{"status": "cleared"}', 2048), true], // 18.11 primary clear
    [pad('{"result":"succeeded","command":"add","port":"ring:0"}'), true],
    [pad('{"result":"failed","command":"patch","ports":{"src":"a","dst":"b"}}'), false],
  ]
  for (const [frame, ok] of cases)
    assert.is(paddedResult(frame).ok, ok, frame.toString('latin1', 0, 40))
  const failed = paddedResult(pad('{"result":"failed","command":"del","port":"ring:9"}'))
  assert.equal(failed, {
    ok: false,
    code: 'COMMAND_REJECTED',
    message: 'command error: del failed',
  })
})

test('nfv status of each era: 2020 members kept in the process order, 18.11 unchanged', () => {
  const e2 = nfvCommands
    .status()
    .decode(
      pad(
        '{"client-id":1,"status":"idling","master-lcore":1,"lcores":[1,2],"ports":["phy:0 nq 1"],"patches":[]}',
      ),
    )
  assert.equal(e2.ok && Object.keys(e2.value), [
    'client-id',
    'status',
    'master-lcore',
    'lcores',
    'ports',
    'patches',
  ])
  const e0 = nfvCommands
    .status()
    .decode(pad('{"client-id":1,"status":"running","ports":[],"patches":[]}', 2048))
  assert.equal(e0.ok && e0.value, { 'client-id': 1, status: 'Running', ports: [], patches: [] })
})

test('vf and mirror status of 19.11: string indexes and master-lcore; the profile learns 2020', () => {
  const vf = vfCommands.status()
  const info = vf.decode(Buffer.from(VF_STATUS))
  assert.ok(info.ok)
  if (!info.ok) return
  assert.equal(info.value.ports, ['phy:0', 'phy:1', 'ring:0'])
  assert.equal(learnProfile({}, effectOf(vf, info.value)), {
    masterLcore: true,
    portIndexStrings: true,
    era: '2020',
    classifierWord: 'classifier',
  })
  const mirror = mirrorCommands.status().decode(Buffer.from(MIRROR_STATUS))
  assert.equal(mirror.ok && mirror.value['master-lcore'], 1)
  const old = vfCommands.status()
  const e0 = old.decode(
    Buffer.from(
      '{ "results": [ { "result": "success" } ], "info": { "client-id": 2, "phy": [ 0 ], "vhost": [  ], "ring": [  ], "core": [  ], "classifier_table": [  ] } }',
    ),
  )
  assert.ok(e0.ok)
  if (!e0.ok) return
  const profile = learnProfile({}, effectOf(old, e0.value))
  assert.equal(profile, {
    masterLcore: false,
    portIndexStrings: false,
    era: '18.11',
    classifierWord: 'classifier_mac',
  })
  assert.is(classifierWordOf(profile), 'classifier_mac')
  assert.is(classifierWordOf({ era: '2020' }), 'classifier')
  assert.is(vf.decode(Buffer.from(VF_STATUS.replace('"0", "1"', '"0", "x"'))).ok, false)
})

test('primary era from its status; pcap status is its info; flow and launch lines', () => {
  assert.is(primaryEra({ phy_ports: [], ring_ports: [] }), '18.11')
  assert.is(primaryEra({ lcores: [0], phy_ports: [], ring_ports: [] }), '2020')
  assert.is(primaryEra({ 'master-lcore': 0, lcores: [0], phy_ports: [], ring_ports: [] }), '2020')
  const pcap = pcapCommands.status().decode(Buffer.from(PCAP_STATUS))
  assert.equal(pcap.ok && pcap.value.status, 'idle')
  const flow = primary2020Commands.flow('destroy phy:0 ALL')
  assert.equal(
    [flow.line, flow.metric, flow.long],
    ['flow destroy phy:0 ALL', 'flow destroy', true],
  )
  const reply = flow.decode(pad('{"result": "error", "message": "Flow rule #3 not found"}'))
  assert.equal(reply, { ok: true, value: { result: 'error', message: 'Flow rule #3 not found' } })
  assert.is(
    primary2020Commands.addPort('pipe:0', { rx: 'ring:0', tx: 'ring:1' }).line,
    'add pipe:0 ring:0 ring:1',
  )
})

test.run()
