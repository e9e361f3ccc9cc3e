import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { isSafeLine } from '../../src/protocol/line.ts'
import { nfvCommands as nfv } from '../../src/protocol/nfv.ts'
import { primaryCommands as primary } from '../../src/protocol/primary.ts'
import { mirrorCommands as mirror, vfCommands as vf } from '../../src/protocol/vf.ts'

test('every builder produces the exact command line of the protocol', () => {
  const cases: [string, string][] = [
    [primary.status().line, 'status'],
    [primary.clear().line, 'clear'],
    [primary.exit().line, 'exit'],
    [nfv.status().line, 'status'],
    [nfv.forward().line, 'forward'],
    [nfv.stop().line, 'stop'],
    [nfv.addPort('ring:0').line, 'add ring:0'],
    [nfv.delPort('vhost:1').line, 'del vhost:1'],
    [nfv.patch('ring:0', 'vhost:1').line, 'patch ring:0 vhost:1'],
    [nfv.patchReset().line, 'patch reset'],
    [nfv.exit().line, 'exit'],
    [vf.componentStart('fw1', 2, 'forward').line, 'component start fw1 2 forward'],
    [vf.componentStop('fw1').line, 'component stop fw1'],
    [vf.portAdd('ring:0', 'rx', 'fw1').line, 'port add ring:0 rx fw1'],
    [
      vf.portAdd('ring:0', 'rx', 'fw1', { operation: 'add', id: 100, pcp: 3 }).line,
      'port add ring:0 rx fw1 add_vlantag 100 3',
    ],
    [
      vf.portAdd('ring:0', 'tx', 'fw1', { operation: 'del' }).line,
      'port add ring:0 tx fw1 del_vlantag',
    ],
    [vf.portDel('ring:0', 'tx', 'fw1').line, 'port del ring:0 tx fw1'],
    [
      vf.classifierTable('add', 'FA:16:3E:7D:CC:35', 'ring:0').line,
      'classifier_table add mac FA:16:3E:7D:CC:35 ring:0',
    ],
    [
      vf.classifierTable('del', 'FA:16:3E:7D:CC:35', 'ring:0', 475).line,
      'classifier_table del vlan 475 FA:16:3E:7D:CC:35 ring:0',
    ],
    [mirror.componentStart('mr1', 2, 'mirror').line, 'component start mr1 2 mirror'],
    [mirror.portAdd('ring:0', 'rx', 'mr1').line, 'port add ring:0 rx mr1'],
  ]
  for (const [line, expected] of cases) assert.is(line, expected)
})

test('exit is the only command after which the process is expected to close', () => {
  assert.ok(nfv.exit().closes)
  assert.ok(primary.exit().closes)
  assert.not.ok(nfv.stop().closes)
})

test('the last guard refuses lines that could split or smuggle tokens', () => {
  for (const line of [
    '',
    ' status',
    'status ',
    'a  b',
    'a\tb',
    'a\nb',
    'a\0b',
    'é',
    `a ${'x'.repeat(111)}`,
    'a b c d e f g h i',
    'x'.repeat(900),
  ]) {
    assert.is(isSafeLine(line), false, JSON.stringify(line))
  }
  for (const line of [
    'status',
    'port add ring:0 rx fw1 add_vlantag 100 3',
    'classifier_table del vlan 475 FA:16:3E:7D:CC:35 ring:0',
  ]) {
    assert.ok(isSafeLine(line), line)
  }
})

test('nfv commands track Running/Idle: forward runs, stop and del idle', () => {
  assert.equal(nfv.forward().track!({}, undefined), { status: 'Running' })
  assert.equal(nfv.stop().track!({ status: 'Running' }, undefined), { status: 'Idle' })
  assert.equal(nfv.delPort('ring:0').track!({ status: 'Running' }, undefined), { status: 'Idle' })
  assert.is(nfv.addPort('ring:0').track?.name, undefined)
})

test('vf component commands track which components exist on which core', () => {
  const started = vf.componentStart('fw1', 2, 'forward').track!({}, undefined)
  assert.equal(started, { components: [{ name: 'fw1', core: 2, type: 'forward' }] })
  assert.equal(vf.componentStop('fw1').track!(started, undefined), { components: [] })
})

test.run()
