// Child processes of the benchmark: compiled commands run by plain node, bench/*.ts through tsx.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

const TSX = new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url).pathname

/**
 * Runs a script of the repository, or one at an absolute path (`.ts`: through tsx, otherwise plain
 * node, with `nodeArgs` and `env` over this environment); resolves once it prints a line matching
 * `ready`.
 */
export async function startChild(
  script: string,
  args: string[],
  ready: RegExp,
  stream: 'stdout' | 'stderr' = 'stdout',
  { nodeArgs = [], env = {} }: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<ChildProcess> {
  const path = script.startsWith('/')
    ? script
    : new URL(`../../${script}`, import.meta.url).pathname
  const before = script.endsWith('.ts') ? [TSX] : nodeArgs
  const child = spawn(process.execPath, [...before, path, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  const lines = createInterface({ input: child[stream] })
  const other = stream === 'stdout' ? child.stderr : child.stdout
  other.resume()
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)))
    lines.on('line', (line) => ready.test(line) && resolve())
  })
  lines.on('line', () => {}) // keep draining
  return child
}

/** SIGTERM, and resolves once the child has exited. */
export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return
  child.kill('SIGTERM')
  await once(child, 'exit')
}
