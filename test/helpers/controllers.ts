// Real controllers as child processes (src/spp-ctl.ts under tsx), each with simulated processes in this
// process: a fleet host that can be killed with SIGKILL, as a crashed or unplugged one would be.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { startSims, type SimSpec } from '../../src/sim/start-sims.ts'

const CLI = new URL('../../src/spp-ctl.ts', import.meta.url).pathname
const START_TIMEOUT_MS = 20_000

/** One pino line of the controller's log (--log-format json). */
export type LogLine = { level: number; msg: string; [key: string]: unknown }

export type ChildController = {
  name: string
  child: ChildProcess
  /** Its REST API, `http://127.0.0.1:PORT` (no trailing slash). */
  base: string
  primaryPort: number
  secondaryPort: number
  sims: SimProcess[]
  /** Every JSON log line so far. */
  logs: LogLine[]
  /** Resolves with the first log line (so far or to come) that `match` takes; rejects after 20 s. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>
  /** Starts more simulated processes against it; resolves once they are connected. */
  connect(specs: SimSpec[]): Promise<SimProcess[]>
  /** SIGKILL (nothing runs: its lease is left to expire); resolves once it has exited. */
  kill(): Promise<void>
  /** SIGTERM and its graceful stop (the alive key is revoked); resolves once it has exited. */
  stop(): Promise<void>
}

/** Starts `spp-ctl --etcd URL --host-name NAME` on ephemeral loopback ports, then its `sims`. */
export async function startChildController(
  etcd: string,
  name: string,
  sims: SimSpec[] = [],
  args: string[] = [],
): Promise<ChildController> {
  // Each its own state directory: the default (the home's) would be one for all of them.
  const stateDir = mkdtempSync(join(tmpdir(), `spp-ctl-${name}-`))
  const child = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', CLI, '-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', '0'],
      ...['--etcd', etcd, '--host-name', name, '--log-format', 'json'],
      ...['--state-dir', stateDir, ...args],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const exited = once(child, 'exit').finally(() =>
    rmSync(stateDir, { recursive: true, force: true }),
  )
  const logs: LogLine[] = []
  const other: string[] = []
  const waiters = new Set<() => void>()
  createInterface({ input: child.stderr }).on('line', (line) => {
    if (line.startsWith('{')) logs.push(JSON.parse(line) as LogLine)
    else other.push(line)
    for (const wake of [...waiters]) wake()
  })
  const waitForLog = (match: (line: LogLine) => boolean, timeoutMs = 20_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error(`${name}: no such log line in time`)),
        timeoutMs,
      )
      const done = (error?: Error, hit?: LogLine) => {
        clearTimeout(timer)
        waiters.delete(check)
        if (error) reject(error)
        else resolve(hit!)
      }
      const check = () => {
        const hit = logs.find(match)
        if (hit) done(undefined, hit)
        else if (child.exitCode !== null || child.signalCode !== null)
          done(new Error(`controller ${name} exited:\n${other.join('\n')}`))
      }
      waiters.add(check)
      check()
    })
  child.once('exit', () => waiters.forEach((wake) => wake()))
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    await exited
  }
  const started: SimProcess[] = []
  try {
    const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS)
    const listening = await waitForLog((l) => l.msg === 'controller listening').finally(() =>
      clearTimeout(timer),
    )
    const ports = listening as LogLine & Record<'apiPort' | 'primaryPort' | 'secondaryPort', number>
    const connect = async (specs: SimSpec[]) => {
      const { primaryPort, secondaryPort } = ports
      const more = await startSims(specs, { primaryPort, secondaryPort })
      started.push(...more)
      return more
    }
    await connect(sims)
    return {
      name,
      child,
      base: `http://127.0.0.1:${ports.apiPort}`,
      primaryPort: ports.primaryPort,
      secondaryPort: ports.secondaryPort,
      sims: started,
      logs,
      waitForLog,
      connect,
      kill: () => end('SIGKILL'),
      stop: async () => {
        await end('SIGTERM')
        for (const sim of started) sim.stop()
      },
    }
  } catch (error) {
    for (const sim of started) sim.stop()
    await end('SIGKILL')
    throw error
  }
}

/** Runs `body` with one controller per name, each with `sims` (and its `argsOf`); all stopped after. */
export async function withChildControllers(
  etcd: string,
  names: string[],
  sims: SimSpec[],
  body: (controllers: ChildController[]) => Promise<void>,
  argsOf: (name: string) => string[] = () => [],
) {
  const results = await Promise.allSettled(
    names.map((n) => startChildController(etcd, n, sims, argsOf(n))),
  )
  const controllers = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
  try {
    const failed = results.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    await body(controllers)
  } finally {
    await Promise.all(controllers.map((c) => c.stop()))
  }
}

// A fleet host as its tests see it from outside: its metric of the link, its log, a change.

/** The value of spp_etcd_up on the controller at `base` ('1', '0'; undefined without --etcd). */
export const etcdUp = async (base: string) =>
  /^spp_etcd_up (\d)$/m.exec(await (await fetch(`${base}/metrics`)).text())?.[1]

/** The log line of a controller that has reached etcd. */
export const reached = (l: LogLine) => l.msg.startsWith('etcd reached')

/** Adds `port` to nfv 1 of the controller at `base`; resolves with the answer's status. */
export const addPort = (base: string, port: string) =>
  fetch(`${base}/v1/nfvs/1/ports`, {
    method: 'PUT',
    body: JSON.stringify({ action: 'add', port }),
  }).then((r) => r.status)
