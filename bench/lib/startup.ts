// Start-up of the controller: time from spawn to its "controller listening" log line, and its
// resident memory once idle, as the shipped command (compiled) or through tsx (npm run dev).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { setTimeout as delay } from 'node:timers/promises'
import { shebangOf } from './shebang.ts'

/** Medians over a few starts. */
export type Startup = {
  listeningMs: number
  idleRssMiB: number
  /** The first start's RSS once V8's memory reducer has run (it starts after 8 s of quiet). */
  settledRssMiB: number
  runs: number
}

const root = new URL('../../', import.meta.url).pathname
const shebang = shebangOf(`${root}bin/spp-ctl.js`)
const COMMANDS = {
  compiled: [...shebang.nodeArgs, `${root}bin/spp-ctl.js`], // as the kernel runs it, with its #! line
  tsx: ['--import', 'tsx', `${root}src/cli.ts`],
}
/** How long the controller sits idle before its RSS is read; and for the settled figure. */
export const IDLE_MS = 1000
const SETTLED_MS = 10_000

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

/**
 * Medians over `runs` starts, one after another, on ephemeral loopback ports; with `stateDir`, the
 * controller remembers in it (the default: the first start creates the database, the others open it).
 */
export async function measureStartup(
  how: keyof typeof COMMANDS,
  runs: number,
  stateDir = 'none',
): Promise<Startup> {
  const times: number[] = []
  const rss: number[] = []
  let settled = NaN
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    const child = spawn(
      process.execPath,
      [
        ...COMMANDS[how],
        '-b',
        '127.0.0.1',
        '-p',
        '0',
        '-s',
        '0',
        '-a',
        '0',
        '--state-dir',
        stateDir,
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...shebang.env } },
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
    const rssNow = () =>
      Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024
    rss.push(rssNow())
    if (i === 0) {
      await delay(SETTLED_MS - IDLE_MS)
      settled = rssNow()
    }
    child.removeAllListeners('exit')
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  return {
    listeningMs: Math.round(median(times)),
    idleRssMiB: median(rss),
    settledRssMiB: settled,
    runs,
  }
}
