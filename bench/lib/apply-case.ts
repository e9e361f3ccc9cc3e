// Provisioning speed: a topology document with 6 steps on each of 4 vfs applied through
// `POST /v1/topology/apply`, against the 18.11 simulator at its real poll (a vf reads its socket
// once a second), timed from the request to the answer, the apply's own reads included.
import { startRig } from './rig.ts'

const VFS = [2, 3, 4, 5]
/** Issue 21's target for this document: the time of its slowest process, reads included. */
export const APPLY_TARGET_S = 8.5

/** What one apply took. */
export type ApplyResult = {
  processes: number
  steps: number
  status: number
  /** From sending the request to the whole answer. */
  wallMs: number
  /** The time the controller reports in its answer. */
  reportedMs: number | undefined
  /** Steps a plan of the same document still finds afterwards (0: everything took). */
  leftOver: number
}

// Per vf: two forwarders, each with an rx and a tx port: 2 starts and 4 attaches.
const component = (name: string, core: number, rx: string, tx: string) => ({
  name,
  core,
  type: 'forward',
  rx_port: [{ port: rx }],
  tx_port: [{ port: tx }],
})
const DOCUMENT = {
  vfs: Object.fromEntries(
    VFS.map((id) => [
      String(id),
      {
        components: [
          component('fwd1', 2, 'ring:0', 'vhost:0'),
          component('fwd2', 3, 'vhost:1', 'ring:1'),
        ],
      },
    ]),
  ),
}

/** Applies the document once to freshly started vfs. */
export async function applyCase(log: (line: string) => void): Promise<ApplyResult> {
  const sims = ['--primary', ...VFS.flatMap((id) => ['--vf', String(id)])]
  const rig = await startRig(sims, 1 + VFS.length) // no --poll-ms: 18.11's own, 1 s
  const post = (what: string) =>
    fetch(`${rig.api}/v1/topology/${what}`, { method: 'POST', body: JSON.stringify(DOCUMENT) })
  const steps = async () => ((await (await post('plan')).json()) as { steps: unknown[] }).steps
  try {
    const planned = (await steps()).length
    log(`apply: ${planned} steps planned over ${VFS.length} vfs; applying`)
    const start = performance.now()
    const answer = await post('apply')
    const body = (await answer.json()) as { ms?: number }
    const wallMs = Math.round(performance.now() - start)
    return {
      processes: VFS.length,
      steps: planned,
      status: answer.status,
      wallMs,
      reportedMs: body.ms,
      leftOver: (await steps()).length,
    }
  } finally {
    await rig.stop()
  }
}

/** The case's lines for the report, with the ratio to the target. */
export function applyReport(r: ApplyResult): string {
  const s = r.wallMs / 1000
  return [
    `Topology apply (18.11 simulator, vf poll 1 s): ${r.steps} steps over ${r.processes} vfs, ` +
      `answered ${r.status} after ${s.toFixed(2)} s (the controller's own count: ${r.reportedMs ?? '-'} ms); ` +
      `a plan afterwards finds ${r.leftOver} steps left.`,
    '',
    '| target | measured | ratio to target | met |',
    '| --- | --- | --- | --- |',
    `| topology apply of ${r.steps} steps on ${r.processes} vfs ≤ ${APPLY_TARGET_S} s | ${s.toFixed(2)} s | ` +
      `${(s / APPLY_TARGET_S).toFixed(2)}× | ${s <= APPLY_TARGET_S && r.status === 200 ? 'yes' : 'NO'} |`,
  ].join('\n')
}
