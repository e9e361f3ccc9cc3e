import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CommandQueue } from '../../src/actors/command-queue.ts'
import { createJob } from '../../src/actors/job.ts'
import { nfvCommands as nfv } from '../../src/protocol/nfv.ts'
import { primaryCommands } from '../../src/protocol/primary.ts'
import { fixedReply } from '../../src/sim/wire.ts'
import { fakeConnection, flush } from '../helpers/fake-link.ts'

test('a status joins the status at the tail of the queue; any other command does not', () => {
  const queue = new CommandQueue()
  const lines = ['status', 'status', 'forward', 'status', 'status', 'forward', 'forward']
  for (const line of lines) {
    queue.push(line === 'status' ? createJob(nfv.status()).job : createJob(nfv.forward()).job)
  }
  const jobs = queue.drain()
  assert.equal(
    jobs.map((job) => [job.line, job.waiters.length]),
    [
      ['status', 2],
      ['forward', 1],
      ['status', 2],
      ['forward', 1],
      ['forward', 1],
    ],
  )
})

test('a joined request gets a reply of its own type, decoded once for all', async () => {
  const queue = new CommandQueue()
  const first = createJob(nfv.status())
  const second = createJob(nfv.status())
  queue.push(first.job)
  queue.push(second.job)
  const job = queue.shift()!
  const { answer } = await import('../../src/actors/job.ts')
  answer(job, {
    ok: true,
    value: fixedReply('{"client-id":1,"status":"running","ports":[],"patches":[]}'),
  })
  const [a, b] = await Promise.all([first.promise, second.promise])
  assert.is(a.status, 'Running')
  assert.is(a, b, 'one decoded object, shared')
  assert.is(queue.shift(), undefined)
})

test('reads of different processes never join (the line is the same, the read is not)', () => {
  const queue = new CommandQueue()
  queue.push(createJob(nfv.forward()).job)
  queue.push(createJob(primaryCommands.clear()).job)
  assert.is(queue.length, 2)
})

test('status requests while one is in flight share one queued status; every one is answered', async () => {
  const c = fakeConnection('secondary')
  c.reply(fixedReply('1'))
  for (let i = 0; i < 5; i++) void c.ask(nfv.status())
  assert.equal(c.written.slice(1), ['status'])
  c.reply(fixedReply('{"client-id":1,"status":"idling","ports":[],"patches":[]}'))
  assert.equal(c.written.slice(1), ['status', 'status'])
  c.reply(fixedReply('{"client-id":1,"status":"running","ports":[],"patches":[]}'))
  await flush()
  assert.is(c.outcomes.length, 5)
  assert.match(c.outcomes[0]!, /Idle/)
  for (const later of c.outcomes.slice(1)) assert.match(later, /Running/)
})

test('joined requests fail together when the shared status times out', async () => {
  const c = fakeConnection('secondary')
  c.reply(fixedReply('1'))
  void c.ask(nfv.forward())
  for (let i = 0; i < 3; i++) void c.ask(nfv.status())
  c.clock.increment(1000)
  await flush()
  assert.equal(
    c.outcomes.map((o) => o.split(' ')[0]),
    ['REPLY_TIMEOUT', 'PROCESS_UNRESPONSIVE', 'PROCESS_UNRESPONSIVE', 'PROCESS_UNRESPONSIVE'],
  )
})

test.run()
