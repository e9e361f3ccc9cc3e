// The step runner shared by apply and restore: processes side by side, each one's steps in order,
// tear-down everywhere before build-up anywhere, a failure stopping only its own process.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { idPath, parseId } from '../../src/protocol/process-id.ts'
import { runSteps, type StepAnswer, type StepReport } from '../../src/topology/run-steps.ts'
import type { Step } from '../../src/topology/steps.ts'

/** A step of `action` asked of `process` (`vf:2`); its path (shown, never read) is `path`. */
const step = (process: string, action: string, path = idPath(parseId(process)!)): Step => ({
  method: 'PUT',
  path,
  action,
  why: `${action} on ${process}`,
  process: parseId(process)!,
})

/** A send whose answers the test gives, one step at a time: `sent` lists what is in flight. */
function controlledSend() {
  const sent: number[] = []
  const answers = new Map<number, (answer: StepAnswer) => void>()
  const waiting = new Set<() => void>()
  let rest: StepAnswer | undefined
  return {
    sent,
    /** Answers every step sent from now on at once (a test that failed must not hang). */
    answerRest(answer: StepAnswer = { ok: true, status: 204 }) {
      rest = answer
      for (const [, resolve] of answers) resolve(answer)
    },
    send: (_: Step, number: number) =>
      new Promise<StepAnswer>((resolve) => {
        sent.push(number)
        if (rest) return resolve(rest)
        answers.set(number, resolve)
        for (const wake of waiting) wake()
      }),
    /** Resolves once `number` has been sent. */
    until: (number: number) =>
      new Promise<void>((resolve) => {
        const check = () => sent.includes(number) && (waiting.delete(check), resolve())
        waiting.add(check)
        check()
      }),
    answer(number: number, status = 204, error = '') {
      answers.get(number)!(
        status < 400
          ? { ok: true, status }
          : { ok: false, status, code: 'COMMAND_REJECTED', error },
      )
    },
  }
}

test('each process in order, the processes side by side; reports per step', async () => {
  const steps = [
    step('vf:2', 'component.start'),
    step('vf:2', 'port.attach'),
    step('nfv:1', 'port.add'),
    step('nfv:1', 'forward.start'),
  ]
  const c = controlledSend()
  const reports: StepReport[] = []
  const run = runSteps(steps, c.send, (r) => reports.push(r))
  await Promise.all([c.until(1), c.until(3)]) // both processes' first steps are out at once
  assert.equal(c.sent, [1, 3])
  c.answer(3)
  await c.until(4)
  assert.equal(c.sent, [1, 3, 4]) // the vf's second step waits for its first
  c.answer(1)
  await c.until(2)
  c.answer(4)
  c.answer(2)
  const { done, failures, skipped } = await run
  assert.equal(
    done.map((d) => d.number),
    [1, 2, 3, 4],
  )
  assert.equal([failures, skipped], [[], []])
  assert.equal(
    reports.map((r) => [r.number, r.process, r.outcome, r.total]),
    [
      [3, 'nfv:1', 'done', 4],
      [1, 'vf:2', 'done', 4],
      [4, 'nfv:1', 'done', 4],
      [2, 'vf:2', 'done', 4],
    ],
  )
})

test('a failed step skips the rest of its process only; every failure is named', async () => {
  const steps = [
    step('vf:2', 'component.start'),
    step('vf:2', 'port.attach'),
    step('vf:2', 'port.attach'),
    step('mirror:3', 'component.start'),
    step('nfv:1', 'port.add'),
    step('nfv:1', 'forward.start'),
  ]
  const c = controlledSend()
  const run = runSteps(steps, c.send, () => {})
  await Promise.all([c.until(1), c.until(4), c.until(5)])
  c.answer(1)
  await c.until(2)
  c.answer(2, 400, 'command error: bad value(port)')
  c.answer(4, 500, 'no reply within 5000 ms')
  c.answer(5)
  await c.until(6)
  c.answer(6)
  const { done, failures, skipped } = await run
  assert.equal(
    done.map((d) => d.number),
    [1, 5, 6],
  )
  assert.equal(
    failures.map((f) => [f.number, f.status, f.code, f.error]),
    [
      [2, 400, 'COMMAND_REJECTED', 'command error: bad value(port)'],
      [4, 500, 'COMMAND_REJECTED', 'no reply within 5000 ms'],
    ],
  )
  assert.equal(
    skipped.map((s) => s.number),
    [3],
  )
  assert.not.ok(c.sent.includes(3))
})

test('tear-down everywhere first: a ring moves from one vf to another only once it is free', async () => {
  const steps = [
    step('vf:2', 'port.detach'),
    step('vf:3', 'component.start'),
    step('vf:3', 'port.attach'),
  ]
  const c = controlledSend()
  const run = runSteps(steps, c.send, () => {})
  await c.until(1)
  assert.equal(c.sent, [1]) // vf 3 builds nothing before vf 2 has let the ring go
  c.answer(1)
  await c.until(2)
  c.answer(2)
  await c.until(3)
  c.answer(3)
  assert.is((await run).done.length, 3)
})

/** A step that waits for `after` (numbers of the same plan), as the schedule marks it. */
const waiting = (s: Step, ...after: number[]): Step => ({ ...s, after: { steps: after, why: '' } })

test("a step waits for the steps it is after; its process's next ones wait, the others go on", async () => {
  const steps = [
    step('vf:2', 'component.start'),
    step('vf:2', 'port.attach'),
    step('nfv:1', 'port.add'),
    waiting(step('nfv:1', 'forward.start'), 1, 2),
    step('nfv:1', 'port.add'),
    step('mirror:3', 'component.start'),
  ]
  const c = controlledSend()
  const run = runSteps(steps, c.send, () => {})
  await Promise.all([c.until(1), c.until(3), c.until(6)]) // unrelated processes side by side
  c.answer(3) // the nfv's port is added: its forward start would go now, but waits for the vf
  c.answer(6)
  c.answer(1)
  await c.until(2)
  assert.equal(c.sent, [1, 3, 6, 2])
  c.answer(2)
  await c.until(4)
  c.answer(4)
  await c.until(5)
  c.answer(5)
  const { done, skipped } = await run
  assert.equal(
    done.map((d) => d.number),
    [1, 2, 3, 4, 5, 6],
  )
  assert.equal(skipped, [])
  assert.equal(c.sent, [1, 3, 6, 2, 4, 5])
})

test("a sender whose reader's step fails is never sent, nor the rest of its process", async () => {
  const steps = [
    step('vf:2', 'component.start'),
    step('vf:2', 'port.attach'),
    step('nfv:1', 'port.add'),
    waiting(step('nfv:1', 'forward.start'), 1, 2),
    step('nfv:1', 'port.add'),
    step('mirror:3', 'component.start'),
  ]
  const c = controlledSend()
  const run = runSteps(steps, c.send, () => {})
  await Promise.all([c.until(1), c.until(3), c.until(6)])
  c.answer(1)
  c.answer(3)
  c.answer(6)
  await c.until(2)
  c.answer(2, 400, 'command error: bad value(port)')
  c.answerRest()
  const { done, failures, skipped } = await run
  assert.equal(
    done.map((d) => d.number),
    [1, 3, 6],
  )
  assert.equal(
    failures.map((f) => f.number),
    [2],
  )
  assert.equal(
    skipped.map((s) => s.number),
    [4, 5],
  )
  assert.equal(c.sent, [1, 3, 6, 2])
})

test('a wait for a later step (a plan not made by the schedule) is not waited for', async () => {
  const steps = [waiting(step('nfv:1', 'forward.start'), 2), step('vf:2', 'port.attach')]
  const c = controlledSend()
  const run = runSteps(steps, c.send, () => {})
  await Promise.all([c.until(1), c.until(2)])
  c.answer(1)
  c.answer(2)
  assert.is((await run).done.length, 2)
})

test('a send that throws is a failed step (500 INTERNAL), not a runner that throws', async () => {
  const steps = [step('nfv:1', 'port.add')]
  const run = await runSteps(
    steps,
    () => {
      throw new Error('boom')
    },
    () => {},
  )
  assert.equal(
    run.failures.map((f) => [f.status, f.code, f.error]),
    [[500, 'INTERNAL', 'boom']],
  )
})

test("a step's queue and stage are its process's, whatever its path shows", async () => {
  const steps = [step('vf:2', 'port.attach', '/v1/x'), step('primary', 'port.add', '/v1/x')]
  const c = controlledSend()
  const reports: StepReport[] = []
  const run = runSteps(steps, c.send, (r) => reports.push(r))
  await c.until(2)
  assert.equal(c.sent, [2]) // the primary builds before any secondary does
  c.answer(2)
  await c.until(1)
  c.answer(1)
  assert.is((await run).done.length, 2)
  assert.equal(
    reports.map((r) => [r.number, r.process]),
    [
      [2, 'primary'],
      [1, 'vf:2'],
    ],
  )
})

test.run()
