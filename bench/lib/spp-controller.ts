// SPP's own controller (spp-ctl of SPP 18.11, Python: bottle on eventlet) run from its source, the
// directory given by `--spp-dir`, beside this one: nothing of SPP's is in this repository.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from '../../test/helpers/free-port.ts'
import { untilListening, type Controller } from './controller-process.ts'
import { memoryMiB } from './proc.ts'

/** The script in a checkout of SPP (the repository's root, or its src/spp-ctl). */
export function sppScript(dir: string): string {
  for (const script of [join(dir, 'src/spp-ctl/spp-ctl'), join(dir, 'spp-ctl')])
    if (existsSync(script)) return script
  throw new Error(`--spp-dir ${dir}: no src/spp-ctl/spp-ctl there (a checkout of SPP 18.11)`)
}

/**
 * Starts SPP's controller on ephemeral loopback ports as that release starts it: its script run by
 * the interpreter its `#!` line names (Debian's /usr/bin/python3, where python3-bottle,
 * python3-eventlet and python3-netaddr are), with its default logging (DEBUG, to stderr, drained).
 */
export async function startSppController(dir: string): Promise<Controller> {
  const script = sppScript(dir)
  const interpreter = /^#!\s*(\S+)/.exec(readFileSync(script, 'utf8'))?.[1] ?? 'python3'
  const [primaryPort, secondaryPort, apiPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ]
  const args = ['-b', '127.0.0.1', '-p', primaryPort, '-s', secondaryPort, '-a', apiPort]
  const child = spawn(interpreter, [script, ...args.map(String)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let last = ''
  child.on('error', (error) => (last = error.message)) // e.g. no such interpreter
  child.stderr.on('data', (chunk: Buffer) => (last = chunk.toString().slice(-500)))
  try {
    await untilListening(apiPort, child, "SPP's controller")
  } catch (error) {
    child.kill('SIGTERM')
    throw new Error(`${(error as Error).message}: ${last}`)
  }
  const pid = child.pid!
  return {
    pid,
    primaryPort,
    secondaryPort,
    apiPort,
    rssMiB: () => memoryMiB(pid, 'VmRSS'),
    peakRssMiB: () => memoryMiB(pid, 'VmHWM'),
    async stop() {
      if (child.exitCode !== null) return child.exitCode
      child.kill('SIGTERM')
      const [code] = (await once(child, 'exit')) as [number | null]
      return code
    },
  }
}
