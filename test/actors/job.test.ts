// A job and its waiting requests: the reply read once, with its command, answers each in its own
// type; or each fails typed.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import {
  answer,
  canJoin,
  createJob,
  joined,
  live,
  readReply,
  refuse,
} from '../../src/actors/job.ts'
import type { ControllerError } from '../../src/protocol/errors.ts'
import type { NfvInfo } from '../../src/protocol/bodies.ts'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import { fail } from '../../src/protocol/result.ts'
import type { Command } from '../../src/protocol/command.ts'
import { fixedReply } from '../../src/sim/wire.ts'

const RUNNING = fixedReply('{"client-id":1,"status":"running","ports":[],"patches":[]}')
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: ControllerError) => `${error.code} ${error.message}`,
  )

test('a change: the fields the queue and the view need, from its command', () => {
  const cause = { requestId: 'r1', by: 'ops' }
  const { job } = createJob(nfv.addPort('ring:1'), { cause })
  assert.equal(
    [job.line, job.metric, job.read, job.closes, job.change, job.cause],
    ['add ring:1', 'add', false, false, { kind: 'port.add', port: 'ring:1' }, cause],
  )
  assert.is(createJob(nfv.exit()).job.closes, true)
  assert.is(createJob(nfv.status()).job.change, undefined, 'a read changes nothing')
})

test("a reply: the request resolves with its decoded value, the job's effect is the observation", async () => {
  const { job, promise } = createJob(nfv.status())
  const reply = readReply(job, RUNNING)
  answer(job, reply)
  assert.is((await promise).status, 'Running')
  assert.equal(reply.ok && reply.value.effect, {
    kind: 'nfv.read',
    info: await promise,
    shows: { release: '18.11' },
  })
})

test('a joined request gets a reply of its own type, decoded once for all', async () => {
  const first = createJob(nfv.status())
  const second = createJob(nfv.status())
  const both = joined(first.job, second.job)
  answer(both, readReply(both, RUNNING))
  const [a, b] = await Promise.all([first.promise, second.promise])
  assert.is(a.status, 'Running')
  assert.is(a, b, 'one decoded object, shared')
})

test('a read joins only a read of the same line decoded the same way: one decode answers both', () => {
  const status = createJob(nfv.status()).job
  assert.ok(canJoin(status, createJob(nfv.status()).job))
  const other: Command<NfvInfo> = { ...nfv.status(), decode: () => fail('another decoder') }
  assert.not.ok(canJoin(status, createJob(other).job))
  assert.not.ok(canJoin(createJob(nfv.forward()).job, createJob(nfv.forward()).job))
})

test('a reply that does not decode rejects the request with the decoder failure', async () => {
  const { job, promise } = createJob(nfv.status())
  const reply = readReply(job, fixedReply('{"nope": 1}'))
  assert.is(reply.ok, false)
  answer(job, reply)
  assert.match(await rejection(promise), /^BAD_REPLY /)
})

test('no reply: every request rejects with that code and message', async () => {
  const first = createJob(nfv.status())
  const second = createJob(nfv.status())
  const both = joined(first.job, second.job)
  const none = fail('no reply within 5 ms', 'REPLY_TIMEOUT')
  answer(both, none)
  assert.equal(await Promise.all([rejection(first.promise), rejection(second.promise)]), [
    'REPLY_TIMEOUT no reply within 5 ms',
    'REPLY_TIMEOUT no reply within 5 ms',
  ])
})

test('refuse fails the request without any reply', async () => {
  const { job, promise } = createJob(nfv.forward())
  refuse(job, 'nfv 1 has 2 commands waiting', 'QUEUE_FULL')
  assert.is(await rejection(promise), 'QUEUE_FULL nfv 1 has 2 commands waiting')
})

test('a decoder that throws is an INTERNAL failure of its request, never an exception', async () => {
  const broken: Command<NfvInfo> = {
    ...nfv.status(),
    decode: () => {
      throw new Error('boom')
    },
  }
  const { job, promise } = createJob(broken)
  const reply = readReply(job, RUNNING)
  answer(job, reply)
  assert.equal(reply, {
    ok: false,
    code: 'INTERNAL',
    message: 'decoding the reply failed: boom',
  })
  assert.is(await rejection(promise), 'INTERNAL decoding the reply failed: boom')
})

test('a job is live until every one of its requests has aborted', () => {
  const a = new AbortController()
  const b = new AbortController()
  const first = createJob(nfv.status(), { signal: a.signal })
  const second = createJob(nfv.status(), { signal: b.signal })
  const both = joined(first.job, second.job)
  a.abort()
  assert.is(live(both), true)
  b.abort()
  assert.is(live(both), false)
  assert.is(first.job.waiters.length, 1, 'joining made a new job; the first is as it was')
})

test.run()
