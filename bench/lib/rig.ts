// A controller as shipped with simulated processes connected to it: what each case of the
// benchmark measures against.
import type { ChildProcess } from 'node:child_process'
import { startChild, stopChild } from './children.ts'
import { startControllerProcess, type ControllerProcess } from './controller-process.ts'

/** The controller, its REST address and the simulator processes. */
export type Rig = {
  controller: ControllerProcess
  api: string
  /** Starts one more simulator process (spp-sim options) and waits for `total` registrations. */
  addSims(args: string[], total: number): Promise<void>
  stop(): Promise<void>
}

/** Options of one rig: the controller's flags and node's, and each simulator's `--poll-ms`. */
export type RigOptions = {
  flags?: string[]
  nodeArgs?: string[]
  /** Environment variables, over those of the command's #! line. */
  env?: Record<string, string>
  stdout?: 'inherit' | 'pipe'
  /** Undefined: the release's own poll (1 s for 18.11's vf and mirror). */
  pollMs?: number
  /** Another build of the controller (its cli.js) instead of the shipped one. */
  cli?: string
}

/** Starts the controller, then the simulator with `sims` options, once `processes` registered. */
export async function startRig(
  sims: string[],
  processes: number,
  o: RigOptions = {},
): Promise<Rig> {
  const controller = await startControllerProcess(o.flags ?? [], o.nodeArgs ?? [], {
    countLogs: false,
    stdout: o.stdout ?? 'inherit',
    ...(o.cli ? { cli: o.cli } : {}),
    ...(o.env ? { env: o.env } : {}),
  })
  const api = `http://127.0.0.1:${controller.apiPort}`
  const children: ChildProcess[] = []
  const ports = ['-p', String(controller.primaryPort), '-s', String(controller.secondaryPort)]
  const poll = o.pollMs === undefined ? [] : ['--poll-ms', String(o.pollMs)]
  const rig: Rig = {
    controller,
    api,
    async addSims(args, total) {
      children.push(
        await startChild('bin/spp-sim.js', [...ports, ...poll, ...args], /connected/, 'stderr'),
      )
      await processesUp(api, total)
    },
    async stop() {
      for (const child of children) await stopChild(child)
      await controller.stop()
    },
  }
  await rig.addSims(sims, processes)
  return rig
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
