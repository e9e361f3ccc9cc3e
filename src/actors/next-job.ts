// Which queued command a connection writes next, and which it refuses because it would hurt the
// process. Pure: the machine applies what this decides.
import { statusOf } from '../protocol/kinds/status.ts'
import { hazardOf, needsView } from '../state/hazards.ts'
import type { ProcessView } from '../state/process-view.ts'
import { shifted, unshifted, type CommandQueue } from './command-queue.ts'
import { createJob, live, type Job } from './job.ts'

/** What to write next: the job (if any), the queue left, and the jobs refused on the way. */
export type NextJob = {
  send: Job | undefined
  queue: CommandQueue
  refused: { job: Job; message: string }[]
}

/**
 * The next job someone still waits for (jobs whose every client left are dropped, never sent). A
 * component start is never sent unchecked: on a connection whose status was not read yet (a
 * reconnect, a command resent after one), the status is read first and the start waits at the
 * head; a change that would hang the process is refused, never sent.
 */
export function nextJob(queue: CommandQueue, view: ProcessView | undefined): NextJob {
  const refused: NextJob['refused'] = []
  for (let next = shifted(queue); next; next = shifted(queue)) {
    const [job, rest] = next
    queue = rest
    if (!live(job)) continue
    if (view && job.change && needsView(view, job.change)) {
      const read = createJob(statusOf(view.kind))
      read.promise.catch(() => {}) // nobody waits for it: it fills the view
      return { send: read.job, queue: unshifted(queue, job), refused }
    }
    const hazard = view && job.change && hazardOf(view, job.change)
    if (!hazard) return { send: job, queue, refused }
    refused.push({ job, message: hazard })
  }
  return { send: undefined, queue, refused }
}
