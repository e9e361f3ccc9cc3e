// apply's progress on a terminal: a bar showing the running step, a line per finished step.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { showProgress, type StartApply } from '../../src/cli/progress.ts'
import type { Shown } from '../../src/topology/plan.ts'
import type { StreamEvent } from '../../src/cli/sse-client.ts'

const step = (why: string): Shown => ({
  method: 'PUT',
  path: '/v1/nfvs/1/ports',
  action: 'port.add',
  why,
})
const PLAN = { steps: [step('add ring:0 to nfv 1'), step('add ring:1 to nfv 1')], summary: {} }

/** A fake controller: the events of an apply whose id is the one the CLI chose, then the answer. */
const replay =
  (outcomes: string[], answer: Response): StartApply =>
  (id) => {
    async function* events(): AsyncGenerator<StreamEvent> {
      await Promise.resolve() // events arrive later than the call
      yield {
        event: 'apply.step',
        data: { apply: 'someone-else', number: 1, why: 'x', ms: 5, outcome: 'done' },
      }
      for (const [i, outcome] of outcomes.entries())
        yield {
          event: 'apply.step',
          data: { apply: id, number: i + 1, why: PLAN.steps[i]!.why, ms: 1500, outcome },
        }
      yield {
        event: outcomes.includes('failed') ? 'apply.failed' : 'apply.done',
        data: { apply: id },
      }
    }
    return Promise.resolve({ events: events(), response: Promise.resolve(answer) })
  }

const io = (isTTY: boolean) => {
  const out: string[] = []
  const err: string[] = []
  return {
    out,
    err,
    io: {
      stdout: { isTTY, columns: 40, write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
      stdin: process.stdin,
    },
  }
}

test('on a terminal: a bar for the running step, cut to the width, replaced by each finished step', async () => {
  const t = io(true)
  const code = await showProgress(t.io, PLAN, replay(['done', 'done'], Response.json({ done: [] })))
  assert.is(code, 0)
  const screen = t.out.join('')
  const bars = screen.split('\r\x1b[K').filter((part) => part.startsWith('['))
  assert.equal(bars, [
    '[........................] 0/2  add rin',
    '[############............] 1/2  add rin',
  ])
  assert.ok(screen.includes('\r\x1b[K  ✓ 1/2  add ring:0 to nfv 1  (1.5 s)\n'), screen)
  assert.not.ok(
    screen.includes('someone-else') || screen.includes('  x  '),
    'another apply is not shown',
  )
  assert.match(screen.split('\r\x1b[K').at(-1)!, /^Applied 2 steps in \d+\.\d s\.\n$/)
})

test('not a terminal: plain lines; a failed step exits 1 with its error on stderr', async () => {
  const t = io(false)
  const failure = {
    failed: {
      number: 2,
      ...PLAN.steps[1],
      body: { action: 'add', port: 'ring:1' },
      status: 500,
      error: 'no reply within 5000 ms',
    },
    done: [PLAN.steps[0]],
  }
  const code = await showProgress(
    t.io,
    PLAN,
    replay(['done', 'failed'], Response.json(failure, { status: 500 })),
  )
  assert.is(code, 1)
  assert.equal(t.out.join('').split('\n').slice(1), [
    'Applying 2 steps:',
    '  done 1/2  add ring:0 to nfv 1  (1.5 s)',
    '  FAILED 2/2  add ring:1 to nfv 1  (1.5 s)',
    '',
  ])
  assert.is(
    t.err.join(''),
    'Failed at step 2/2: add ring:1 to nfv 1\n  PUT /v1/nfvs/1/ports {"action":"add","port":"ring:1"}\n  -> 500: no reply within 5000 ms\n1 step was done; nothing was rolled back.\n',
  )
})

test.run()
