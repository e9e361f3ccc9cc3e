// The servers the instructions case counts, each started under cachegrind as the installed command
// starts node: the controller as shipped (bin/spp-ctl.js), and the stack's command server and
// the minimal hono app bundled (lib/baselines.ts), all with the #! line's node flags and
// environment. The baselines do not get the V8 flags bin/spp-ctl.js sets from inside.
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { startChild, stopChild } from './children.ts'
import { freePort, SHIPPED } from './controller-process.ts'
import { shebangOf } from './shebang.ts'
import { startTraced, type Traced } from './cachegrind.ts'

/** A server running under cachegrind: where to send the requests, and how to end it. */
export type TracedServer = { url: string; stop(): Promise<void> }
/** Starts a server whose counts go to the out-file named. */
export type Starter = (out: string) => Promise<TracedServer>

/**
 * How long a server may take to answer. Under valgrind node and its bundle start many times slower
 * than natively, and slower still on a busy machine: generous, so that a slow start is not a
 * failure.
 */
const PATIENCE_MS = 300_000

/** The simulated nfv: the one process the cases need, answering at once. */
const SIM = ['--nfv', '1', '--poll-ms', '0']

/** The installed command's node flags and environment, for every server of the case. */
const shebang = () => shebangOf(SHIPPED)

/**
 * The controller with `--state-dir none`, and a simulated nfv connected to it. `status` is told
 * the nfv's status as the controller first answered it (the hono app answers those bytes).
 */
export function controller(status?: (body: string) => void): Starter {
  return async (out) => {
    const [primary, secondary, api] = [await freePort(), await freePort(), await freePort()]
    const args = ['-b', '127.0.0.1', '-p', `${primary}`, '-s', `${secondary}`, '-a', `${api}`]
    const traced = startTraced(SHIPPED, [...args, '--state-dir', 'none'], { ...shebang(), out })
    const url = `http://127.0.0.1:${api}`
    const children: ChildProcess[] = []
    const stop = async () => {
      for (const child of children) await stopChild(child)
      await traced.stop()
    }
    try {
      await untilAnswered(traced, `${url}/v1/processes`)
      const ports = ['-p', `${primary}`, '-s', `${secondary}`]
      children.push(await startChild('bin/spp-sim.js', [...ports, ...SIM], /connected/, 'stderr'))
      // The nfv is listed once it has registered; until then its status is a 404.
      status?.(await untilAnswered(traced, `${url}/v1/nfvs/1`))
      return { url, stop }
    } catch (error) {
      await stop()
      throw error
    }
  }
}

/** bench/stack-command-server.ts, bundled in `dir` as stack.mjs, with its simulated nfv. */
export function stack(dir: string): Starter {
  return async (out) => {
    const [httpPort, wirePort] = [await freePort(), await freePort()]
    const script = join(dir, 'stack.mjs')
    const traced = startTraced(script, [`${httpPort}`, `${wirePort}`], { ...shebang(), out })
    let sim: ChildProcess | undefined
    const stop = async () => {
      if (sim) await stopChild(sim)
      await traced.stop()
    }
    try {
      // It takes the simulator's connection before it listens for HTTP.
      await within(traced.printed(/^wire ready/))
      const ports = ['-p', `${wirePort}`, '-s', `${wirePort}`]
      sim = await startChild('bin/spp-sim.js', [...ports, ...SIM], /connected/, 'stderr')
      await within(traced.printed(/listening/))
      return { url: `http://127.0.0.1:${httpPort}`, stop }
    } catch (error) {
      await stop()
      throw error
    }
  }
}

/** bench/hono-server.ts, bundled in `dir` as hono.mjs, answering what `responses` names. */
export function hono(dir: string, responses: string): Starter {
  return async (out) => {
    const port = await freePort()
    const traced = startTraced(join(dir, 'hono.mjs'), [`${port}`, responses], {
      ...shebang(),
      out,
    })
    try {
      await within(traced.printed(/listening/))
    } catch (error) {
      await traced.stop()
      throw error
    }
    return { url: `http://127.0.0.1:${port}`, stop: () => traced.stop() }
  }
}

/** Rejects if `started` takes longer than the patience. */
async function within<T>(started: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('a traced server did not start')), PATIENCE_MS)
  })
  try {
    return await Promise.race([started, late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Polls `url` until it answers 200, and resolves with the body. Polled every 200 ms, not faster:
 * each answered poll is a request the server counts, and two runs should differ by few of them.
 */
async function untilAnswered(traced: Traced, url: string): Promise<string> {
  const deadline = Date.now() + PATIENCE_MS
  while (Date.now() < deadline) {
    const { child } = traced
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`a traced server exited before it answered ${url}: ${traced.tail()}`)
    const answer = await fetch(url).then(
      async (res) => (res.ok ? await res.text() : undefined),
      () => undefined,
    )
    if (answer !== undefined) return answer
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`no answer from ${url}`)
}
