// Provisioning speed: a topology document with 6 steps on each of 4 vfs applied through
// `POST /v1/topology/apply`, against the 18.11 simulator at its real poll (a vf reads its socket
// once a second), timed from the request to the answer, the apply's own reads included. The
// controller has its default flags (the state directory on, in a temporary directory).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startControllerProcess } from './controller-process.ts'
import { startRig } from './rig.ts'

const VFS = [2, 3, 4, 5]

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
export async function applyCase(
  nodeArgs: string[],
  log: (line: string) => void,
): Promise<ApplyResult> {
  const sims = ['--primary', ...VFS.flatMap((id) => ['--vf', String(id)])]
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-state-'))
  const controller = await startControllerProcess(['--state-dir', dir], nodeArgs, {
    countLogs: false,
  })
  const rig = await startRig(controller, sims, 1 + VFS.length) // no --poll-ms: 18.11's own, 1 s
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
    rmSync(dir, { recursive: true, force: true })
  }
}
