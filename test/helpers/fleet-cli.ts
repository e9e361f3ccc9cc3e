// `spp-ctl fleet ...` run in this process against an etcd, its output collected.
import { Readable } from 'node:stream'
import { runFleet } from '../../src/cli/fleet/fleet.ts'

/** Runs `spp-ctl fleet ...args --etcd URL`; `onOutput` sees each write to stdout. */
export async function fleetCli(
  etcd: string,
  args: string[],
  {
    stdin = '',
    onOutput,
    env = {},
  }: { stdin?: string; onOutput?: (text: string) => void; env?: NodeJS.ProcessEnv } = {},
) {
  let stdout = ''
  let stderr = ''
  const io = {
    stdout: { write: (text: string) => ((stdout += text), onOutput?.(text), true) },
    stderr: { write: (text: string) => ((stderr += text), true) },
    stdin: Readable.from([Buffer.from(stdin)]),
  }
  const code = await runFleet([...args, '--etcd', etcd], io, env)
  return { code, stdout, stderr }
}

/** One row of `fleet ls --json`. */
export type ListedHost = {
  host: string
  alive: boolean
  url: string | null
  processes: string[]
  drift: number | null
}

/** `fleet ls --json`, parsed. */
export async function fleetLs(etcd: string): Promise<ListedHost[]> {
  const { code, stdout, stderr } = await fleetCli(etcd, ['ls', '--json'])
  if (code !== 0) throw new Error(`fleet ls exited ${code}: ${stderr}`)
  return JSON.parse(stdout) as ListedHost[]
}
