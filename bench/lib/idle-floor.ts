// The floor of idle RSS on this project's stack: a minimal hono app on @hono/node-server
// (bench/hono-server.ts), started as the installed command starts the controller (the flags and
// variables of its #! line), read as the controller's idle RSS is read; and the same app holding
// the project's store open in a state directory, as the controller does by default.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as delay } from 'node:timers/promises'
import { bundleServers } from './baselines.ts'
import { freePort } from './controller-process.ts'
import { shebangOf } from './shebang.ts'
import { IDLE_MS } from './startup.ts'

/** Medians over a few starts, in MiB, 1 s after each start listened. */
export type IdleFloor = { hono: number; withStore: number; runs: number }

const root = new URL('../../', import.meta.url).pathname
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

/** Starts the app `runs` times without, then with, a state directory (created by the first). */
export async function measureIdleFloor(runs: number): Promise<IdleFloor> {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-idle-floor-'))
  try {
    await bundleServers(dir, { hono: 'bench/hono-server.ts' })
    writeFileSync(join(dir, 'responses.json'), JSON.stringify({ 'GET /': '' }))
    const state = join(dir, 'state')
    mkdirSync(state)
    const idle = async (...more: string[]) => {
      const rss: number[] = []
      for (let i = 0; i < runs; i++) rss.push(await idleOnce(dir, more))
      return median(rss)
    }
    return { hono: await idle(), withStore: await idle(state), runs }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function idleOnce(dir: string, more: string[]): Promise<number> {
  const shebang = shebangOf(`${root}bin/spp-ctl.js`)
  const args = [String(await freePort()), join(dir, 'responses.json'), ...more]
  const child = spawn(process.execPath, [...shebang.nodeArgs, join(dir, 'hono.mjs'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...shebang.env },
  })
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the hono app exited with ${code}`)))
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line === 'listening') resolve()
      })
    })
    await delay(IDLE_MS)
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024
  } finally {
    child.removeAllListeners('exit')
    child.kill('SIGTERM')
    if (child.exitCode === null) await once(child, 'exit')
  }
}
