// Releases and what a connection learns of its own: markers, capabilities, the 405 text; the
// 2020 replies each kind decodes.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ControllerError } from '../../src/protocol/errors.ts'
import { effectOf } from '../../src/protocol/command.ts'
import { mirrorCommands } from '../../src/protocol/kinds/mirror.ts'
import { nfvCommands } from '../../src/protocol/kinds/nfv.ts'
import { pcapCommands } from '../../src/protocol/kinds/pcap.ts'
import { primaryCommands } from '../../src/protocol/kinds/primary.ts'
import { vfCommands } from '../../src/protocol/kinds/vf.ts'
import { paddedResult } from '../../src/protocol/padded-result.ts'
import {
  capsOf,
  eraLabel,
  firstLearnt,
  learn,
  statusShows,
  type Learnt,
} from '../../src/protocol/release.ts'
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

test('vf and mirror status of 19.11: string indexes and master-lcore show 19.11 and the word', () => {
  const vf = vfCommands.status()
  const info = vf.decode(Buffer.from(VF_STATUS))
  assert.ok(info.ok)
  if (!info.ok) return
  assert.equal(info.value.ports, ['phy:0', 'phy:1', 'ring:0'])
  const effect = effectOf(vf, info.value)
  assert.equal('shows' in effect && effect.shows, {
    release: '19.11',
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
  const shown = effectOf(old, e0.value)
  const learnt = learn(
    firstLearnt('vf', { release: '18.11' }),
    'shows' in shown ? shown.shows : { release: '19.11' },
  )
  const caps = capsOf(learnt, 2)
  assert.equal(
    [caps.release, caps.settled, caps.word('classifier')],
    ['18.11', true, 'classifier_mac'],
  )
  assert.is(vf.decode(Buffer.from(VF_STATUS.replace('"0", "1"', '"0", "x"'))).ok, false)
})

test('each marker shows the release that brought it (spp-protocol-2020 §9.2)', () => {
  const cases: [Parameters<typeof statusShows>, string][] = [
    [['primary', { phy_ports: [] }], '18.11'],
    [['primary', { lcores: [0] }], '18.08.2'],
    [['primary', { 'master-lcore': 0, lcores: [0] }], '19.08'],
    [['nfv', { lcores: [1] }], '18.08.2'],
    [['nfv', { 'master-lcore': 1, lcores: [1] }], '18.08.3'],
    [['vf', {}], '18.11'],
    [['vf', { 'master-lcore': 1 }], '18.08.3'],
    [['vf', { 'master-lcore': 1 }, { types: ['classifier'] }], '18.08.4'],
    [['mirror', {}, { stringIndexes: true }], '19.11'],
    [['pcap', {}], '18.08.2'],
  ]
  for (const [args, release] of cases)
    assert.is(statusShows(...args).release, release, JSON.stringify(args))
})

test('a status that shows nothing new leaves the record as it was, the same object', () => {
  const vf = learn(firstLearnt('vf', { release: '18.11' }), { release: '18.11' })
  assert.is(learn(vf, { release: '18.11' }), vf)
  const v2 = learn(vf, { release: '18.08.2' })
  assert.is(learn(v2, { release: '18.11' }), v2, 'an older marker tells nothing new')
  const classifier = learn(vf, { release: '18.11', classifierWord: 'classifier_mac' })
  assert.is.not(classifier, vf)
  assert.is(classifier.classifierWord, 'classifier_mac')
  assert.is(learn(classifier, { release: '18.11' }), classifier)
  const later = learn(classifier, { release: '19.11' })
  assert.equal([later.release, later.classifierWord], ['19.11', 'classifier_mac'])
  const first = firstLearnt('vf', { release: '18.11' })
  assert.is.not(learn(first, { release: '18.11' }), first, 'the first status is news: it was read')
})

test('what is settled: a padded reply measured, a status read; a capability is at least its release', () => {
  const nfv = firstLearnt('nfv', { release: '18.08.2' })
  assert.is(capsOf(nfv).settled, false, 'its frame is not measured')
  const long = learn(nfv, { frameBytes: 32768 })
  assert.equal(
    [long.release, capsOf(long).has('memif'), capsOf(long).has('flowRules')],
    ['19.11', true, true],
  )
  const short = learn(learn(nfv, { frameBytes: 2048 }), { release: '18.08.3' })
  assert.equal([capsOf(short).settled, capsOf(short).has('memif')], [true, false])
  assert.is(capsOf(firstLearnt('nfv', { release: '18.11' })).settled, true, 'an 18.11 handshake')
  const primary: Learnt = firstLearnt('primary', { release: '18.08.2' })
  assert.is(capsOf(primary).settled, true, 'no master-lcore: older than 19.08, never 19.11')
  assert.is(capsOf(firstLearnt('primary', { release: '19.08' })).settled, false)
  assert.equal(
    [eraLabel(firstLearnt('vf', { release: '18.11' })), eraLabel(primary)],
    ['unknown', '2020'],
  )
})

test('the 405 names the route, the process, the release it showed and the one it needs', () => {
  const refusal = (learnt: Learnt, clientId?: number) => {
    try {
      capsOf(learnt, clientId).require('flowRules', 'flow rules')
    } catch (error) {
      return [(error as ControllerError).code, (error as Error).message]
    }
    return undefined
  }
  assert.equal(refusal(firstLearnt('primary', { release: '19.08' })), [
    'NOT_IN_RELEASE',
    'flow rules is not supported by the release of the primary (SPP 19.08 of November 2019); it needs SPP 19.11 of April 2020 or later',
  ])
  assert.equal(
    refusal(firstLearnt('primary', { release: '18.08.2' }))?.[1],
    'flow rules is not supported by the release of the primary (SPP 18.08.2 of March 2019); it needs SPP 19.11 of April 2020 or later',
  )
  assert.is(
    refusal(learn(firstLearnt('primary', { release: '19.08' }), { frameBytes: 32768 })),
    undefined,
  )
  const vf = capsOf(learn(firstLearnt('vf', { release: '18.11' }), { release: '18.11' }), 3)
  assert.throws(
    () => vf.require('exitReply', 'DELETE /v1/vfs/{client_id}'),
    /release of vf 3 \(SPP 18\.11 of November 2018\); it needs SPP 18\.08\.2 of March 2019 or later$/,
  )
  // A route SPP brought later than the capability it needs is named by its own release.
  assert.throws(
    () =>
      capsOf(firstLearnt('primary', { release: '18.11' })).require(
        'primaryRoutes',
        'PUT /v1/primary/ports',
        '18.08.4',
      ),
    /\(SPP 18\.11 of November 2018\); it needs SPP 18\.08\.4 of October 2019 or later$/,
  )
  assert.is(vf.word('classifier'), 'classifier_mac')
  assert.is(vf.word('forward'), 'forward')
})

test('primary and pcap status; flow and launch lines', () => {
  const pcap = pcapCommands.status().decode(Buffer.from(PCAP_STATUS))
  assert.equal(pcap.ok && pcap.value.status, 'idle')
  const flow = primaryCommands.flowDestroy(0, 'ALL')
  assert.equal(
    [flow.line, flow.metric, flow.long],
    ['flow destroy phy:0 ALL', 'flow destroy', true],
  )
  const one = primaryCommands.flowDestroy(2, 7)
  assert.equal([one.line, one.metric], ['flow destroy phy:2 7', 'flow destroy'])
  const create = primaryCommands.flowCreate('phy:1 ingress pattern eth / end actions drop / end')
  assert.equal(
    [create.line, create.metric],
    ['flow create phy:1 ingress pattern eth / end actions drop / end', 'flow create'],
  )
  assert.is(primaryCommands.flowValidate('phy:1 x').line, 'flow validate phy:1 x')
  const reply = flow.decode(pad('{"result": "error", "message": "Flow rule #3 not found"}'))
  assert.equal(reply, { ok: true, value: { result: 'error', message: 'Flow rule #3 not found' } })
  assert.is(
    primaryCommands.addPort('pipe:0', { rx: 'ring:0', tx: 'ring:1' }).line,
    'add pipe:0 ring:0 ring:1',
  )
})

test.run()
