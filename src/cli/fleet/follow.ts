// Following a host after a desired write: its observed apply progress, until its controller is done.
import type { Etcd3 } from 'etcd3'
import type { StartApply } from '../progress.ts'
import type { StreamEvent } from '../sse-client.ts'
import { text } from '../../fleet/etcd-client.ts'
import { ApplyProgress, decodeValue, Observed, type FleetKeys } from '../../fleet/keys.ts'

/** A host's progress on the revision written, the last one final (or the host gone, or too slow). */
export type Followed =
  ApplyProgress | { state: 'gone'; revision: number } | { state: 'timeout'; revision: number }

const FINAL = new Set(['converged', 'refused', 'failed', 'gone', 'timeout'])
/** Whether a followed state is the last one. */
export const isFinal = (followed: Followed) => FINAL.has(followed.state)

/**
 * Yields each progress report of `host` about desired `revision` (or a later one), from the
 * observed writes after that revision, ending with a final report. A watch from `revision` on
 * misses nothing written since, however soon the host answers.
 */
export async function* followApply(
  client: Etcd3,
  keys: FleetKeys,
  host: string,
  revision: number,
  timeoutMs: number,
): AsyncGenerator<Followed> {
  const queue: Followed[] = []
  let wake: (() => void) | undefined
  const push = (item: Followed) => {
    queue.push(item)
    wake?.()
  }
  const watcher = client
    .watch()
    .prefix(`${keys.hosts}${host}/`)
    .startRevision(String(revision))
    .watcher()
  watcher.on('put', (kv) => {
    if (kv.key.toString() !== keys.observed(host)) return
    const observed = decodeValue(Observed, text(kv))
    if (observed.ok && observed.value.apply && observed.value.apply.revision >= revision)
      push(observed.value.apply)
  })
  watcher.on('delete', (kv) => {
    if (kv.key.toString() === keys.alive(host)) push({ state: 'gone', revision })
  })
  const timer = setTimeout(() => push({ state: 'timeout', revision }), timeoutMs)
  try {
    for (;;) {
      const item = queue.shift()
      if (item === undefined) {
        await new Promise<void>((resolve) => (wake = resolve))
        continue
      }
      yield item
      if (isFinal(item)) return
    }
  } finally {
    clearTimeout(timer)
    await watcher.cancel()
  }
}

/** The answer `showProgress` reads for a final report, as the controller's apply would answer. */
function answerOf(host: string, timeoutMs: number, last: Followed): Response {
  switch (last.state) {
    case 'converged':
      return Response.json({})
    case 'failed':
      return Response.json({ failed: last.failed, done: last.steps.slice(0, -1) }, { status: 400 })
    case 'refused':
      return new Response(`refused key(${last.refused?.field}): ${last.refused?.reason}`, {
        status: 422,
      })
    case 'gone':
      return new Response(`${host} went away (its alive key expired) before converging`, {
        status: 503,
      })
    default:
      return new Response(`${host} did not report convergence within ${timeoutMs / 1000} s`, {
        status: 504,
      })
  }
}

/** `followApply` as the event stream and answer of `topology apply`, for its progress display. */
export function asStartApply(
  host: string,
  timeoutMs: number,
  followed: AsyncGenerator<Followed>,
): StartApply {
  return (id) => {
    let settle: (answer: Response) => void = () => undefined
    const response = new Promise<Response>((resolve) => (settle = resolve))
    async function* events(): AsyncGenerator<StreamEvent> {
      let shown = 0
      for await (const report of followed) {
        const steps = 'steps' in report ? report.steps : []
        for (; shown < steps.length; shown++) {
          const { why, ms, outcome } = steps[shown]!
          yield { event: 'apply.step', data: { apply: id, number: shown + 1, why, ms, outcome } }
        }
        if (isFinal(report)) return settle(answerOf(host, timeoutMs, report))
      }
    }
    return Promise.resolve({ events: events(), response })
  }
}
