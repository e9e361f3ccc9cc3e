// The controller as a child process of a benchmark, with its ports, memory and CPU time.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { freePort } from '../../test/helpers/free-port.ts'
import { cpuSeconds, memoryMiB } from './proc.ts'
import { shebangOf } from './shebang.ts'

/** A controller under test, ours or SPP's: its ports, memory and CPU time. */
export type Controller = {
  pid: number
  primaryPort: number
  secondaryPort: number
  apiPort: number
  /** Resident memory of the controller process now, and its peak, in MiB (from /proc). */
  rssMiB(): number
  peakRssMiB(): number
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>
}
/** This project's controller as a child process. */
export type ControllerProcess = Controller & {
  child: ChildProcess
  /** CPU time the controller process has used so far (user + system), in seconds. */
  cpuSeconds(): number
  /** Log lines seen so far, by level name. */
  logLevels: Map<string, number>
}

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
}

/** The command as installed: bin/spp-ctl.js, which runs the bundle in dist/. */
export const SHIPPED = new URL('../../bin/spp-ctl.js', import.meta.url).pathname

/**
 * Runs `spp-ctl` as shipped (bin/, compiled) as its own process on ephemeral loopback ports, so
 * its memory is its own, with `--state-dir none` unless `extraArgs` name one; `nodeArgs` go to
 * node (`--cpu-prof`). `countLogs: false` only drains its log lines (no parsing in this process,
 * which shares the cores with the load generator).
 */
export async function startControllerProcess(
  extraArgs: string[] = [],
  nodeArgs: string[] = [],
  { countLogs = true }: { countLogs?: boolean } = {},
): Promise<ControllerProcess> {
  const [primaryPort, secondaryPort, apiPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ]
  const args = [
    '-b',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-s',
    String(secondaryPort),
    '-a',
    String(apiPort),
    // Nothing remembered unless a case asks: the home's state directory is not the bench's to
    // write, and what one run left would be restored at the start of the next.
    ...(extraArgs.includes('--state-dir') ? [] : ['--state-dir', 'none']),
    ...extraArgs,
  ]
  // As the kernel would run it: with the flags and variables of its #! line.
  const shebang = shebangOf(SHIPPED)
  const child = spawn(process.execPath, [...shebang.nodeArgs, ...nodeArgs, SHIPPED, ...args], {
    stdio: ['ignore', 'inherit', 'pipe'],
    env: { ...process.env, ...shebang.env },
  })
  const logLevels = new Map<string, number>()
  const stderr = child.stderr
  if (!countLogs) stderr.resume()
  else
    createInterface({ input: stderr }).on('line', (line) => {
      let entry: { level?: number }
      try {
        entry = JSON.parse(line) as { level?: number }
      } catch {
        process.stderr.write(`${line}\n`)
        return
      }
      const level = LEVELS[entry.level ?? 0] ?? 'other'
      logLevels.set(level, (logLevels.get(level) ?? 0) + 1)
    })
  await untilListening(apiPort, child, 'spp-ctl')
  const pid = child.pid!
  return {
    child,
    pid,
    primaryPort,
    secondaryPort,
    apiPort,
    rssMiB: () => memoryMiB(pid, 'VmRSS'),
    peakRssMiB: () => memoryMiB(pid, 'VmHWM'),
    cpuSeconds: () => cpuSeconds(pid),
    logLevels,
    async stop() {
      child.kill('SIGTERM')
      const [code] = (await once(child, 'exit')) as [number | null]
      return code
    },
  }
}

/** Polls the REST port until it answers (for up to 20 s): start-up of a child process. */
export async function untilListening(apiPort: number, child: ChildProcess, name: string) {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`)
    const up = await fetch(`http://127.0.0.1:${apiPort}/v1/processes`).then(
      () => true,
      () => false,
    )
    if (up) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${name} did not start listening`)
}
