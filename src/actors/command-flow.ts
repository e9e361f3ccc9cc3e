// What a connection does with each command, in or out of a machine transition: takes it into the
// queue, writes the next, settles the one in flight with its reply and tells the listeners.
import type { AnyActorRef } from 'xstate'
import { learn } from '../protocol/release.ts'
import type { Result } from '../protocol/result.ts'
import { nextView } from '../state/process-view.ts'
import { logCommand } from './command-log.ts'
import type { CommandDone, Context } from './connection-context.ts'
import { answer, refuse, type Job } from './job.ts'
import { processLabel as label } from './label.ts'
import { nextJob } from './next-job.ts'

/**
 * Takes a command into the queue: a read joins the same read waiting at the tail; past
 * `maxQueue` the command is refused at once.
 */
export function admit(context: Context, job: Job): void {
  const { queue, maxQueue } = context
  if (queue.joins(job) || queue.length < maxQueue) return queue.push(job)
  const process = label(context)
  refuse(job, `${process} has ${maxQueue} commands waiting: try again later`, 'QUEUE_FULL')
}

/**
 * Writes the next command someone still waits for, refusing any that would hang the process (see
 * next-job.ts), unless one is in flight. Straight to the link: sendTo's deferred delivery and
 * enqueueActions cost 2.5 KB of garbage per command; the write only starts I/O, so nothing
 * re-enters the actor.
 */
export function writeNext(context: Context, link: AnyActorRef | undefined): void {
  if (context.queue.current) return
  const job = nextJob(context.queue, context.view)
  if (!job) return
  context.deadline.arm(context.replyTimeoutMs)
  context.queue.current = { job, sentAt: performance.now() }
  link?.send({ type: 'write', line: job.line })
}

/**
 * Answers the command in flight and moves the view (and what the process has shown) on: the
 * outcome to emit, or undefined when nothing was in flight.
 */
function settle(context: Context, reply: Result<Buffer>): CommandDone | undefined {
  const { queue, view, log, learnt } = context
  const { current } = queue
  if (!current || !view) return undefined
  queue.current = undefined
  context.deadline.disarm()
  const { job, sentAt } = current
  const result = answer(job, reply)
  let after = view
  if (result.ok) {
    const next = nextView(view, result.value, Date.now())
    if (next.ok) after = next.value
    else log.error({ process: label(context), command: job.line }, next.message)
  }
  logCommand(log, context, job, result)
  if (result.ok && 'shows' in result.value && learnt && result.value.shows)
    context.learnt = learn(learnt, result.value.shows)
  context.view = after
  const { line, metric, requestId } = job
  const ms = performance.now() - sentAt
  return { type: 'commandDone', requestId, line, metric, reply: result, before: view, after, ms }
}

/**
 * Settles the command in flight with `reply` and tells the listeners; with `next`, the next
 * command is written to that link first, so that the process works on it while they run.
 */
export function settleAndTell(
  context: Context,
  reply: Result<Buffer>,
  then?: { next: AnyActorRef | undefined },
): void {
  const done = settle(context, reply)
  if (then) writeNext(context, then.next)
  if (done) context.done.tell(done)
}

/**
 * The reply to the command in flight, taken straight from the socket with no event for the
 * machine: settled, the next command written, and the listeners told, as the `ready` state's
 * `link.frame` transition would do (it changes no state; each event cost its machine about 30 µs of CPU, a
 * third of a command's). Anything else (a reply while identifying or discarding, with nothing in
 * flight, to a command that closes the connection) is the machine's: false. A throw here is
 * thrown again inside the machine (`fault`), so it ends the connection as an action's would.
 */
export function takeReply(self: AnyActorRef, frame: Buffer): boolean {
  const { status, value, context, children } = self.getSnapshot() as {
    status: string
    value: unknown
    context: Context
    children: { link?: AnyActorRef }
  }
  if (status !== 'active' || value !== 'ready') return false
  const current = context.queue.current
  if (current === undefined || current.job.closes === true) return false
  try {
    settleAndTell(context, { ok: true, value: frame }, { next: children.link })
  } catch (error) {
    // A listener may have closed the connection before another threw: then nothing would hear it.
    if ((self.getSnapshot() as { status: string }).status === 'active')
      self.send({ type: 'fault', error })
    else context.log.error({ err: error, process: label(context) }, 'internal error after close')
  }
  return true
}
