// spp-ctl as shipped (bin/, built) in a child process: its JSON log lines, awaited by message.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

const CLI = new URL('../../bin/spp-ctl.js', import.meta.url).pathname

export type LogLine = { level: number; msg: string; [key: string]: unknown }

/** Runs the CLI; `waitFor(test, count)` resolves with the first `count` log lines that match. */
export function runCli(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  const stderr: string[] = []
  const logs: LogLine[] = []
  const waiters = new Set<() => void>()
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr.push(line)
    if (line.startsWith('{')) logs.push(JSON.parse(line) as LogLine)
    for (const wake of waiters) wake()
  })
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>
  const waitFor = (match: (line: LogLine) => boolean, count = 1) =>
    new Promise<LogLine[]>((resolve, reject) => {
      const check = () => {
        const hits = logs.filter(match)
        if (hits.length < count) return
        waiters.delete(check)
        resolve(hits)
      }
      waiters.add(check)
      check()
      void exited.then(([code, signal]) => {
        if (!waiters.delete(check)) return
        reject(new Error(`spp-ctl exited (${code ?? signal}) before: ${stderr.join('\n')}`))
      })
    })
  return { child, stderr, logs, waitFor, exited }
}

/** The ports of a started controller, from its `controller listening` line. */
export async function portsOf(cli: ReturnType<typeof runCli>) {
  const [line] = await cli.waitFor((l) => l.msg === 'controller listening')
  const { primaryPort, secondaryPort, apiPort } = line as unknown as Record<string, number>
  return { primaryPort: primaryPort!, secondaryPort: secondaryPort!, apiPort: apiPort! }
}
