// The per-process FIFO: order, reads joining the read at the tail, and jobs nobody waits for.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CommandQueue } from '../../src/actors/command-queue.ts'
import { createJob, type Job } from '../../src/actors/job.ts'
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

test('changes never join, even with the same line', () => {
  const queue = new CommandQueue()
  queue.push(createJob(nfv.forward()).job)
  assert.is(queue.joins(createJob(nfv.forward()).job), false)
  queue.push(createJob(primaryCommands.clear()).job)
  assert.is(queue.length, 2)
})

test('an empty queue has nothing to join, even after the read it held was taken', () => {
  const queue = new CommandQueue()
  assert.is(queue.joins(createJob(nfv.status()).job), false)
  queue.push(createJob(nfv.status()).job)
  queue.shift()
  assert.is(queue.length, 0)
  assert.is(queue.joins(createJob(nfv.status()).job), false, 'the status in flight is not joined')
})

test('first in, first out, across thousands of jobs (the array is compacted on the way)', () => {
  const queue = new CommandQueue()
  const ports = Array.from({ length: 5000 }, (_, i) => `ring:${i}`)
  const taken: string[] = []
  for (const [i, port] of ports.entries()) {
    queue.push(createJob(nfv.addPort(port)).job)
    if (i % 3 === 0) taken.push(queue.shift()!.line) // interleaved, as a live process does
  }
  for (let job = queue.shift(); job; job = queue.shift()) taken.push(job.line)
  assert.equal(
    taken,
    ports.map((p) => `add ${p}`),
  )
  assert.is(queue.length, 0)
})

test('shift skips jobs nobody waits for; length still counts them until then', () => {
  const queue = new CommandQueue()
  queue.push(goneJob(nfv.forward()))
  queue.push(createJob(nfv.stop()).job)
  queue.push(goneJob(nfv.patchReset()))
  assert.is(queue.length, 3)
  assert.is(queue.shift()?.line, 'stop')
  assert.is(queue.shift(), undefined)
  assert.is(queue.length, 0)
})

test('a joined read lives while any of its requests does', () => {
  const queue = new CommandQueue()
  queue.push(goneJob(nfv.status()))
  queue.push(createJob(nfv.status()).job) // joins the gone one at the tail
  assert.is(queue.length, 1)
  assert.is(queue.shift()?.waiters.length, 2)
})

test('drain empties the queue and returns only the jobs someone waits for, in order', () => {
  const queue = new CommandQueue()
  queue.push(createJob(nfv.forward()).job)
  queue.push(goneJob(nfv.forward()))
  queue.push(createJob(nfv.addPort('ring:1')).job)
  assert.equal(
    queue.drain().map((j) => j.line),
    ['forward', 'add ring:1'],
  )
  assert.is(queue.length, 0)
  assert.is(queue.shift(), undefined)
})

test.run()
