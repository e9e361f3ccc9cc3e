// Which queued command a connection writes next, and which it refuses because it would hang the process.
import { statusOf } from '../protocol/kinds/status.ts'
import { hazardOf, needsCores } from '../state/hazards.ts'
import type { ProcessView } from '../state/process-view.ts'
import type { CommandQueue } from './command-queue.ts'
import { createJob, refuse, type Job } from './job.ts'

/**
 * The next job someone still waits for. A component start is never sent unchecked: on a connection
 * whose status was not read yet (a reconnect, a command resent after one), the status is read
 * first; a change that would hang the process is refused, never sent.
 */
export function nextJob(queue: CommandQueue, view: ProcessView | undefined): Job | undefined {
  for (let job = queue.shift(); job; job = queue.shift()) {
    if (view && job.change && needsCores(view, job.change)) {
      queue.unshift(job)
      const read = createJob(statusOf(view.kind))
      read.promise.catch(() => {}) // nobody waits for it; it fills the view
      return read.job
    }
    const hazard = view && job.change && hazardOf(view, job.change)
    if (!hazard) return job
    refuse(job, hazard, 'INVALID_REQUEST')
  }
  return undefined
}
