// Start-up of the controller: time from spawn to its "controller listening" log line, and its
// resident memory once idle, as the shipped command (compiled) or through tsx (npm run dev).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { setTimeout as delay } from 'node:timers/promises'

/** Medians over a few starts. */
export type Startup = { listeningMs: number; idleRssMiB: number; runs: number }

const root = new URL('../../', import.meta.url).pathname
const COMMANDS = {
  compiled: [`${root}bin/spp-ctl.js`],
  tsx: ['--import', 'tsx', `${root}src/cli.ts`],
}
/** How long the controller sits idle before its RSS is read. */
const IDLE_MS = 1000

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

/** Medians over `runs` starts, one after another, on ephemeral loopback ports. */
export async function measureStartup(how: keyof typeof COMMANDS, runs: number): Promise<Startup> {
  const times: number[] = []
  const rss: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    const child = spawn(
      process.execPath,
      [...COMMANDS[how], '-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', '0', '--state-dir', 'none'],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    const lines = createInterface({ input: child.stderr })
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`spp-ctl exited with ${code}`)))
      lines.on('line', (line) => line.includes('"controller listening"') && resolve())
    })
    times.push(performance.now() - start)
    await delay(IDLE_MS)
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
    rss.push(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024)
    child.removeAllListeners('exit')
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  return { listeningMs: Math.round(median(times)), idleRssMiB: median(rss), runs }
}
