// Every command builder (primary, nfv, vf, mirror) in one table: its line, its effect, its metric.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import { primaryCommands as primary } from '../../src/protocol/kinds/primary.ts'
import type { Command } from '../../src/protocol/command.ts'
import { mirrorCommands as mirror } from '../../src/protocol/kinds/mirror.ts'
import { vfCommands as vf } from '../../src/protocol/kinds/vf.ts'

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

test('every change describes what it does as data, with its metric name', () => {
  const cases: [Command, unknown, string][] = [
    [primary.clear(), { kind: 'primary.clear' }, 'clear'],
    [primary.exit(), { kind: 'exit' }, 'exit'],
    [nfv.forward(), { kind: 'nfv.forward' }, 'forward'],
    [nfv.stop(), { kind: 'nfv.stop' }, 'stop'],
    [nfv.addPort('ring:0'), { kind: 'port.add', port: 'ring:0' }, 'add'],
    [nfv.delPort('vhost:1'), { kind: 'port.del', port: 'vhost:1' }, 'del'],
    [nfv.patch('phy:0', 'ring:0'), { kind: 'patch.set', src: 'phy:0', dst: 'ring:0' }, 'patch'],
    [nfv.patchReset(), { kind: 'patch.reset' }, 'patch reset'],
    [
      vf.componentStart('fw1', 2, 'forward'),
      { kind: 'component.start', name: 'fw1', core: 2, type: 'forward' },
      'component start',
    ],
    [vf.componentStop('fw1'), { kind: 'component.stop', name: 'fw1' }, 'component stop'],
    [
      vf.portAdd('ring:0', 'tx', 'fw1', { operation: 'add', id: 100, pcp: 3 }),
      {
        kind: 'port.attach',
        component: 'fw1',
        port: 'ring:0',
        dir: 'tx',
        vlan: { operation: 'add', id: 100, pcp: 3 },
      },
      'port add',
    ],
    [
      mirror.portAdd('ring:0', 'rx', 'mr1'),
      { kind: 'port.attach', component: 'mr1', port: 'ring:0', dir: 'rx' },
      'port add',
    ],
    [
      vf.portDel('ring:0', 'rx', 'fw1'),
      { kind: 'port.detach', component: 'fw1', port: 'ring:0', dir: 'rx' },
      'port del',
    ],
    [
      vf.classifierTable('add', 'default', 'ring:1', 475),
      { kind: 'classifier.add', type: 'vlan', mac: 'default', port: 'ring:1', vlan: 475 },
      'classifier_table add',
    ],
    [
      vf.classifierTable('del', 'FA:16:3E:7D:CC:35', 'ring:0'),
      { kind: 'classifier.del', type: 'mac', mac: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
      'classifier_table del',
    ],
  ]
  for (const [command, effect, metric] of cases) {
    assert.equal(command.read ? undefined : command.effect, effect, command.line)
    assert.is(command.metric, metric, command.line)
  }
})

test('a status is a read: it tells what it saw, through its decoded reply', () => {
  const info = { 'client-id': 1, status: 'Idle' as const, ports: [], patches: [] }
  const status = nfv.status()
  assert.ok(status.read)
  assert.equal(status.read && status.observe(info), {
    kind: 'nfv.read',
    info,
    shows: { release: '18.11' },
  })
  assert.is(status.metric, 'status')
})

test.run()
