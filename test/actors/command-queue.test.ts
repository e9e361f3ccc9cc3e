// The per-process FIFO as a value: order, reads joining the read at the tail, nothing changed in place.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import {
  emptyQueue,
  jobsOf,
  joins,
  pushed,
  shifted,
  unshifted,
  type CommandQueue,
} from '../../src/actors/command-queue.ts'
import { createJob, type Job } from '../../src/actors/job.ts'
import { nextJob } from '../../src/actors/next-job.ts'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import { primaryCommands } from '../../src/protocol/kinds/primary.ts'
import type { Command } from '../../src/protocol/command.ts'

/** A job whose only request has gone (its client disconnected before it was written). */
function goneJob<T>(command: Command<T>): Job {
  const abort = new AbortController()
  const { job } = createJob(command, { signal: abort.signal })
  abort.abort()
  return job
}
const queueOf = (jobs: Job[]) => jobs.reduce(pushed, emptyQueue)
const job = <T>(command: Command<T>) => createJob(command).job

test('a status joins the status at the tail of the queue; any other command does not', () => {
  const lines = ['status', 'status', 'forward', 'status', 'status', 'forward', 'forward']
  const queue = queueOf(lines.map((l) => (l === 'status' ? job(nfv.status()) : job(nfv.forward()))))
  assert.equal(
    jobsOf(queue).map((j) => [j.line, j.waiters.length]),
    [
      ['status', 2],
      ['forward', 1],
      ['status', 2],
      ['forward', 1],
      ['forward', 1],
    ],
  )
  assert.is(queue.length, 5)
})

test('changes never join, even with the same line', () => {
  const queue = pushed(emptyQueue, job(nfv.forward()))
  assert.is(joins(queue, job(nfv.forward())), false)
  assert.is(pushed(queue, job(primaryCommands.clear())).length, 2)
})

test('an empty queue has nothing to join, even after the read it held was taken', () => {
  assert.is(joins(emptyQueue, job(nfv.status())), false)
  const [, rest] = shifted(pushed(emptyQueue, job(nfv.status())))!
  assert.is(rest.length, 0)
  assert.is(joins(rest, job(nfv.status())), false, 'the status in flight is not joined')
})

test('a read joins the tail also when the tail is at the front (just after the back turned round)', () => {
  let queue = queueOf([job(nfv.forward()), job(nfv.stop()), job(nfv.status())])
  queue = shifted(queue)![1] // the back is turned into the front
  queue = pushed(queue, job(nfv.status()))
  assert.equal(
    jobsOf(queue).map((j) => [j.line, j.waiters.length]),
    [
      ['stop', 1],
      ['status', 2],
    ],
  )
})

test('first in, first out, across thousands of jobs, interleaved as a live process does', () => {
  const ports = Array.from({ length: 5000 }, (_, i) => `ring:${i}`)
  const taken: string[] = []
  let queue: CommandQueue = emptyQueue
  for (const [i, port] of ports.entries()) {
    queue = pushed(queue, job(nfv.addPort(port)))
    if (i % 3 === 0) {
      const [head, rest] = shifted(queue)!
      taken.push(head.line)
      queue = rest
    }
  }
  for (let next = shifted(queue); next; next = shifted(queue)) {
    taken.push(next[0].line)
    queue = next[1]
  }
  assert.equal(
    taken,
    ports.map((p) => `add ${p}`),
  )
  assert.is(queue.length, 0)
})

test('every operation makes a new queue and leaves the one it was given as it was', () => {
  const one = pushed(emptyQueue, job(nfv.forward()))
  const two = pushed(one, job(nfv.status()))
  const three = pushed(two, job(nfv.status())) // joins
  const back = unshifted(three, job(nfv.stop()))
  assert.equal(
    [one, two, three, back].map((q) => jobsOf(q).map((j) => `${j.line}x${j.waiters.length}`)),
    [
      ['forwardx1'],
      ['forwardx1', 'statusx1'],
      ['forwardx1', 'statusx2'],
      ['stopx1', 'forwardx1', 'statusx2'],
    ],
  )
  assert.is(emptyQueue.length, 0)
})

test('the next job skips jobs nobody waits for; a joined read lives while any request does', () => {
  const queue = queueOf([
    goneJob(nfv.forward()),
    goneJob(nfv.status()),
    job(nfv.status()), // joins the gone status at the tail
    goneJob(nfv.patchReset()),
  ])
  const first = nextJob(queue, { kind: 'nfv' })
  assert.is(first.send?.line, 'status')
  assert.is(first.send?.waiters.length, 2)
  const second = nextJob(first.queue, { kind: 'nfv' })
  assert.is(second.send, undefined)
  assert.is(second.queue.length, 0)
})

test.run()
