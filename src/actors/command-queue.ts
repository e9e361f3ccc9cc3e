// The commands waiting for one process: a persistent FIFO, O(1) amortised, never changed in place.
import { canJoin, joined, type Job } from './job.ts'

type List = { readonly head: Job; readonly tail: List } | undefined

/**
 * A first-in first-out queue of jobs as a value (Okasaki's two lists: `front` in order, `back`
 * reversed), so that a machine's context can hold it and every change makes a new one. A read
 * joins the same read at the tail instead of queueing again: it would run at the same point, so
 * it sees every change that finished before it, and costs no command.
 */
export type CommandQueue = { readonly front: List; readonly back: List; readonly length: number }

/** A queue with nothing in it. */
export const emptyQueue: CommandQueue = { front: undefined, back: undefined, length: 0 }

function reversed(list: List, onto: List = undefined): List {
  let out = onto
  for (let at = list; at; at = at.tail) out = { head: at.head, tail: out }
  return out
}

/** The job at the tail, if any. */
function lastOf(queue: CommandQueue): Job | undefined {
  if (queue.back) return queue.back.head
  let at = queue.front
  while (at?.tail) at = at.tail
  return at?.head
}

/** Whether this job would join the one at the tail rather than take a place of its own. */
export function joins(queue: CommandQueue, job: Job): boolean {
  const last = lastOf(queue)
  return last !== undefined && canJoin(last, job)
}

/** The queue with `job` at its tail, or joined to the read there. */
export function pushed(queue: CommandQueue, job: Job): CommandQueue {
  const last = lastOf(queue)
  if (last === undefined || !canJoin(last, job))
    return { ...queue, back: { head: job, tail: queue.back }, length: queue.length + 1 }
  const merged = joined(last, job)
  if (queue.back) return { ...queue, back: { head: merged, tail: queue.back.tail } }
  // The tail is the front's last (just after the back was turned around): rare, and at most
  // --max-queue long.
  const front = reversed({ head: merged, tail: reversed(queue.front)!.tail })
  return { ...queue, front }
}

/** The queue with `job` at its head (it goes next). */
export const unshifted = (queue: CommandQueue, job: Job): CommandQueue => ({
  ...queue,
  front: { head: job, tail: queue.front },
  length: queue.length + 1,
})

/** The job at the head and the queue without it, or undefined when the queue is empty. */
export function shifted(queue: CommandQueue): [Job, CommandQueue] | undefined {
  let { front, back } = queue
  if (!front) [front, back] = [reversed(back), undefined]
  if (!front) return undefined
  return [front.head, { front: front.tail, back, length: queue.length - 1 }]
}

/** Every job, head first. */
export function jobsOf(queue: CommandQueue): Job[] {
  const jobs: Job[] = []
  for (let at = queue.front; at; at = at.tail) jobs.push(at.head)
  const back: Job[] = []
  for (let at = queue.back; at; at = at.tail) back.push(at.head)
  return jobs.concat(back.reverse())
}
