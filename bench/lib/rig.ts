// A controller (ours or SPP's) with simulated processes connected to it: what each case of the
// benchmark measures against.
import type { ChildProcess } from 'node:child_process'
import { bundled } from './bundle.ts'
import { startChild, stopChild } from './children.ts'
import type { Controller } from './controller-process.ts'

/** The controller, its REST address and the simulator processes. */
export type Rig = {
  controller: Controller
  api: string
  /** Connects more simulated processes (spp-sim's options) and waits for `total` registrations. */
  addSims(args: string[], total: number): Promise<void>
  /** The simulators' process ids (their CPU shares the host's cores with the controller's). */
  simPids(): number[]
  /** Stops the simulators, then the controller. */
  stop(): Promise<void>
}

/**
 * Connects simulated processes (`sims`: spp-sim's options) to a started controller one after
 * another (bench/sims-in-turn.ts: SPP's controller takes them no faster), and waits until
 * `processes` are listed. `pollMs` undefined: the release's own poll (a vf and a mirror of 18.11
 * read their socket once a second); 0: every process answers at once.
 */
export async function startRig(
  controller: Controller,
  sims: string[],
  processes: number,
  pollMs?: number,
): Promise<Rig> {
  const api = `http://127.0.0.1:${controller.apiPort}`
  const children: ChildProcess[] = []
  const ports = ['-p', String(controller.primaryPort), '-s', String(controller.secondaryPort)]
  const poll = pollMs === undefined ? [] : ['--poll-ms', String(pollMs)]
  const rig: Rig = {
    controller,
    api,
    async addSims(args, total) {
      children.push(
        await startChild(
          await bundled('sims-in-turn'),
          [...ports, ...poll, ...args],
          /all connected/,
        ),
      )
      await processesUp(api, total)
    },
    simPids: () => children.map((child) => child.pid!),
    async stop() {
      for (const child of children) await stopChild(child)
      await controller.stop()
    },
  }
  try {
    await rig.addSims(sims, processes)
  } catch (error) {
    await rig.stop()
    throw error
  }
  return rig
}

/** The simulator's options for a primary and `count - 1` secondaries: nfvs, vfs and mirrors in turn. */
export function processMix(count: number): string[] {
  const kinds = ['--nfv', '--vf', '--mirror']
  return [
    '--primary',
    ...Array.from({ length: count - 1 }, (_, i) => [kinds[i % 3]!, String(i + 1)]).flat(),
  ]
}

/** Polls until `count` processes are listed: start-up of child processes, not a measurement. */
async function processesUp(api: string, count: number) {
  for (let i = 0; i < 600; i++) {
    const listed = (await fetch(`${api}/v1/processes`).then((r) => r.json())) as unknown[]
    if (listed.length >= count) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`fewer than ${count} processes registered`)
}
