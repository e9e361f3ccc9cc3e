// Runs the shipped `spp-ctl` (bin/spp-ctl.js, built into dist/) as a user would, to its end.
import { spawn } from 'node:child_process'

const CLI = new URL('../../bin/spp-ctl.js', import.meta.url).pathname

/** What a run printed and how it exited. */
export type CliRun = { code: number | null; stdout: string; stderr: string }

/**
 * Runs `spp-ctl ...args` with `env` added to a copy of this environment from which SPP_CTL_TOKEN
 * is removed (a token of the developer's must not leak into a test); stdin is empty.
 */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const { SPP_CTL_TOKEN: _, ...inherited } = process.env
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...inherited, ...env },
  })
  child.stdin.end()
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

/**
 * The run with its stderr's first line taken off when it names the controller at `url` as
 * given with --url (every request-making command prints it; test/cli/controller-url.test.ts
 * checks it): what is left is the command's own.
 */
export function afterControllerLine(run: CliRun, url: string): CliRun {
  const named = `controller ${url} (--url)\n`
  return run.stderr.startsWith(named) ? { ...run, stderr: run.stderr.slice(named.length) } : run
}
