// The command's log line: a change at info, a read at debug (its request's line tells it), a failure at warn.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { logCommand } from '../../src/actors/command-log.ts'
import { createJob } from '../../src/actors/job.ts'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import type { Effect } from '../../src/protocol/effects.ts'
import { fail, ok } from '../../src/protocol/result.ts'
import { captureLogs } from '../helpers/log-capture.ts'

const nfv1 = { kind: 'nfv' as const, clientId: 1 }
// What the read's reply decoded to does not matter to its log line.
const done = ok({ kind: 'nfv.read' } as Effect)

const logged = (level: string) => {
  const { log, lines } = captureLogs(level)
  const patch = createJob(nfv.patch('ring:0', 'ring:1'), { requestId: 'r1' }).job
  logCommand(log, nfv1, patch, ok({ kind: 'patch.set', src: 'ring:0', dst: 'ring:1' }))
  logCommand(log, nfv1, createJob(nfv.status(), { requestId: 'r2' }).job, done)
  logCommand(
    log,
    nfv1,
    createJob(nfv.status(), { requestId: 'r3' }).job,
    fail('no', 'REPLY_TIMEOUT'),
  )
  return lines.map((l) => [l.level, l.msg, l.req, l.process, l.command, l.outcome])
}

test('at info: a change is logged with its line and request, a read only if it failed', () => {
  assert.equal(logged('info'), [
    [30, 'command done', 'r1', 'nfv 1', 'patch ring:0 ring:1', 'ok'],
    [40, 'command failed: no', 'r3', 'nfv 1', 'status', 'REPLY_TIMEOUT'],
  ])
})

test('at debug: a read that succeeded is logged too', () => {
  assert.equal(logged('debug')[1], [20, 'command done', 'r2', 'nfv 1', 'status', 'ok'])
})

test('a change whose request keeps a list goes there, its own line debug; a failed one stays warn', () => {
  const { log, lines } = captureLogs('info')
  const told: string[] = []
  const patch = createJob(nfv.patch('ring:0', 'ring:1'), { requestId: 'r1', told }).job
  logCommand(log, nfv1, patch, ok({ kind: 'patch.set', src: 'ring:0', dst: 'ring:1' }))
  const reset = createJob(nfv.patch('ring:1', 'ring:2'), { requestId: 'r1', told }).job
  logCommand(log, nfv1, reset, fail('no', 'COMMAND_REJECTED'))
  logCommand(log, nfv1, createJob(nfv.status(), { requestId: 'r1', told }).job, done)
  assert.equal(told, ['patch ring:0 ring:1'])
  assert.equal(
    lines.map((l) => [l.level, l.command]),
    [[40, 'patch ring:1 ring:2']],
  )
})

test.run()
