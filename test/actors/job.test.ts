// A job and its waiting requests: each decodes the one reply with its own command, or fails typed.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { answer, createJob, live, refuse } from '../../src/actors/job.ts'
import type { ControllerError } from '../../src/errors.ts'
import type { NfvInfo } from '../../src/protocol/bodies.ts'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import { fail, ok } from '../../src/protocol/result.ts'
import type { Command } from '../../src/protocol/command.ts'
import { fixedReply } from '../../src/sim/wire.ts'

const RUNNING = fixedReply('{"client-id":1,"status":"running","ports":[],"patches":[]}')
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: ControllerError) => `${error.code} ${error.message}`,
  )

test('a change: the fields the queue and the view need, from its command', () => {
  const { job } = createJob(nfv.addPort('ring:1'), { requestId: 'r1' })
  assert.equal(
    [job.line, job.metric, job.read, job.closes, job.change, job.requestId],
    ['add ring:1', 'add', false, false, { kind: 'port.add', port: 'ring:1' }, 'r1'],
  )
  assert.is(createJob(nfv.exit()).job.closes, true)
  assert.is(createJob(nfv.status()).job.change, undefined, 'a read changes nothing')
})

test("a reply: the request resolves with its decoded value, the job's effect is the observation", async () => {
  const { job, promise } = createJob(nfv.status())
  const effect = answer(job, ok(RUNNING))
  assert.is((await promise).status, 'Running')
  assert.equal(effect, {
    ok: true,
    value: { kind: 'nfv.read', info: await promise, shows: { release: '18.11' } },
  })
})

test('a joined request gets a reply of its own type, decoded once for all', async () => {
  const first = createJob(nfv.status())
  const second = createJob(nfv.status())
  first.job.waiters.push(...second.job.waiters)
  answer(first.job, ok(RUNNING))
  const [a, b] = await Promise.all([first.promise, second.promise])
  assert.is(a.status, 'Running')
  assert.is(a, b, 'one decoded object, shared')
})

test('a reply that does not decode rejects the request with the decoder failure', async () => {
  const { job, promise } = createJob(nfv.status())
  const effect = answer(job, ok(fixedReply('{"nope": 1}')))
  assert.is(effect.ok, false)
  assert.match(await rejection(promise), /^BAD_REPLY /)
})

test('no reply: every request rejects with that code and message', async () => {
  const first = createJob(nfv.status())
  const second = createJob(nfv.status())
  first.job.waiters.push(...second.job.waiters)
  const effect = answer(first.job, fail('no reply within 5 ms', 'REPLY_TIMEOUT'))
  assert.equal(effect, { ok: false, code: 'REPLY_TIMEOUT', message: 'no reply within 5 ms' })
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
  assert.equal(answer(job, ok(RUNNING)), {
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
  first.job.waiters.push(...second.job.waiters)
  a.abort()
  assert.is(live(first.job), true)
  b.abort()
  assert.is(live(first.job), false)
})

test.run()
