// The line of each settled command: a change without a cause at info, one caused by a request at
// debug (the request's line tells it), a read at debug, a failure at warn.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandLog } from '../../src/actors/command-log.ts'
import type { Settled } from '../../src/actors/settled.ts'
import type { Effect } from '../../src/protocol/effects.ts'
import { fail, ok, type Result } from '../../src/protocol/result.ts'
import { captureLogs } from '../helpers/log-capture.ts'

const settled = (
  line: string,
  read: boolean,
  outcome: Result<Effect>,
  requestId?: string,
): Settled => ({
  process: { kind: 'nfv', clientId: 1 },
  line,
  metric: line.split(' ')[0]!,
  read,
  change: read ? undefined : { kind: 'patch.set', src: 'ring:0', dst: 'ring:1' },
  outcome,
  before: { kind: 'nfv' },
  after: { kind: 'nfv' },
  ms: 1,
  totalMs: 2,
  joined: 0,
  cause: requestId === undefined ? undefined : { requestId, by: 'ops' },
})
const PATCHED = ok<Effect>({ kind: 'patch.set', src: 'ring:0', dst: 'ring:1' })
const READ = ok({ kind: 'nfv.read' } as Effect) // what it decoded to does not matter here

const logged = (level: string) => {
  const { log, lines } = captureLogs(level)
  const logCommand = commandLog(log)
  logCommand(settled('patch ring:0 ring:1', false, PATCHED))
  logCommand(settled('patch ring:0 ring:2', false, PATCHED, 'r1'))
  logCommand(settled('status', true, READ, 'r2'))
  logCommand(settled('status', true, fail('no', 'REPLY_TIMEOUT'), 'r3'))
  return lines.map((l) => [l.level, l.msg, l.req, l.process, l.command, l.outcome])
}

test('at info: a change nobody asked through a request, and any failure', () => {
  assert.equal(logged('info'), [
    [30, 'command done', undefined, 'nfv:1', 'patch ring:0 ring:1', 'ok'],
    [40, 'command failed: no', 'r3', 'nfv:1', 'status', 'REPLY_TIMEOUT'],
  ])
})

test("at debug: a request's change and a read that succeeded are logged too", () => {
  assert.equal(logged('debug').slice(1, 3), [
    [20, 'command done', 'r1', 'nfv:1', 'patch ring:0 ring:2', 'ok'],
    [20, 'command done', 'r2', 'nfv:1', 'status', 'ok'],
  ])
})

test.run()
