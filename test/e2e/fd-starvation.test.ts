// The shipped controller under `ulimit -n 400`: 450 idle REST connections cannot starve it.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { createInterface } from 'node:readline'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startSims } from '../../src/sim/start-sims.ts'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { buildDist } from '../helpers/build.ts'

const CLI = new URL('../../bin/spp-ctl.js', import.meta.url).pathname
const IDLE = 450
const WITHIN_MS = 30_000
type Line = { level: number; msg: string; [key: string]: unknown }

/** `promise`, or a failure naming `what` once `ms` have passed (a starved controller never answers). */
async function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what()}`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

test.before(buildDist)

test(`under ulimit -n 400, ${IDLE} idle REST connections neither keep an nfv from registering nor stay open`, async () => {
  // bash sets the soft and hard limits; node cannot raise them again (it raises soft to hard).
  const args = [CLI, '-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', '0', '--state-dir', 'none']
  const child = spawn(
    'bash',
    ['-c', 'ulimit -n 400 && exec "$0" "$@"', process.execPath, ...args],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  const lines: Line[] = []
  const waiters = new Set<() => void>()
  createInterface({ input: child.stderr }).on('line', (text) => {
    lines.push(JSON.parse(text) as Line)
    for (const wake of waiters) wake()
  })
  const waitFor = (msg: string) =>
    new Promise<Line>((resolve) => {
      const check = () => {
        const hit = lines.find((l) => l.msg === msg)
        if (!hit) return
        waiters.delete(check)
        resolve(hit)
      }
      waiters.add(check)
      check()
    })
  const idle: Socket[] = []
  let sims: SimProcess[] = []
  try {
    const ports = (await waitFor('controller listening')) as Line &
      Record<'apiPort' | 'primaryPort' | 'secondaryPort', number>
    assert.is(ports.maxApiConnections, 168, 'the budget follows the limit of 400')
    const started = performance.now()
    const closedAt: number[] = []
    const closes = []
    for (let i = 0; i < IDLE; i++) {
      const socket = connect({ host: '127.0.0.1', port: ports.apiPort })
      socket.on('error', () => {})
      socket.resume() // reads what comes (a 408), sends nothing
      idle.push(socket)
      closes.push(once(socket, 'close').then(() => closedAt.push(performance.now() - started)))
    }
    await Promise.all(idle.map((s) => Promise.race([once(s, 'connect'), once(s, 'close')])))
    const flooded = performance.now() - started
    const fds = readdirSync(`/proc/${child.pid}/fd`).length

    const registered = async () => {
      sims = await startSims([{ kind: 'nfv', clientId: 1 }], {
        primaryPort: ports.primaryPort,
        secondaryPort: ports.secondaryPort,
      })
      await waitFor('process identified')
      const listed = await fetch(`http://127.0.0.1:${ports.apiPort}/v1/processes`)
      return (await listed.json()) as unknown
    }
    const listed = await within(registered(), WITHIN_MS, () => 'the nfv registered and listed')
    assert.equal(listed, [{ type: 'nfv', 'client-id': 1 }])
    const served = performance.now() - started

    await within(Promise.all(closes), WITHIN_MS, () => `${IDLE - closedAt.length} still open`)
    assert.ok(Math.max(...closedAt) < WITHIN_MS)
    assert.not.ok(
      lines.some((l) => l.level >= 50),
      lines
        .filter((l) => l.level >= 50)
        .map((l) => l.msg)
        .join('\n'),
    )
    if (process.env.SPP_TIMINGS)
      console.log(
        `flood open ${flooded.toFixed(0)} ms, controller fds ${fds}, nfv listed at ${served.toFixed(0)} ms,` +
          ` first close ${Math.min(...closedAt).toFixed(0)} ms, last ${Math.max(...closedAt).toFixed(0)} ms`,
      )
  } finally {
    for (const socket of idle) socket.destroy()
    for (const sim of sims) sim.stop()
    child.kill('SIGKILL')
    await once(child, 'exit')
  }
})

test.run()
