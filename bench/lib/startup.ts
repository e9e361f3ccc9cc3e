// Start-up of the controller as installed (bin/spp-ctl.js, with its #! line): the time from spawn
// to its "controller listening" log line, and its resident memory 1 s later, idle.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { setTimeout as delay } from 'node:timers/promises'
import { SHIPPED } from './controller-process.ts'
import { memoryMiB } from './proc.ts'
import { shebangOf } from './shebang.ts'

/** Medians over a few starts. */
export type Startup = { listeningMs: number; idleRssMiB: number; runs: number }

/** How long the controller sits idle before its RSS is read. */
const IDLE_MS = 1000

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

/**
 * Medians over `runs` starts, one after another, on ephemeral loopback ports, remembering in
 * `stateDir` (the default behaviour: the first start creates the database, the others open it).
 */
export async function measureStartup(runs: number, stateDir: string): Promise<Startup> {
  const shebang = shebangOf(SHIPPED)
  const times: number[] = []
  const rss: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    const ports = ['-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', '0']
    const child = spawn(
      process.execPath,
      [...shebang.nodeArgs, SHIPPED, ...ports, '--state-dir', stateDir],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...shebang.env } },
    )
    const lines = createInterface({ input: child.stderr })
    let last = ''
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`spp-ctl exited with ${code}: ${last}`)))
      lines.on('line', (line) => {
        last = line
        if (line.includes('"controller listening"')) resolve()
      })
    })
    times.push(performance.now() - start)
    await delay(IDLE_MS)
    rss.push(memoryMiB(child.pid!, 'VmRSS'))
    child.removeAllListeners('exit')
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  return { listeningMs: Math.round(median(times)), idleRssMiB: median(rss), runs }
}
