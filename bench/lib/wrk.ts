// wrk as the load generator: written in C, it takes far less of the shared cores than autocannon
// in node. A Lua script sets the request (and cycles through several), and its `done` hook prints
// wrk's own counts and latency percentiles as one JSON line.
import { execFile } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import type { Figures, Load } from './figures.ts'

/** The wrk executable on PATH, or undefined. */
export function findWrk(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir, 'wrk')
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {
      // not in this directory
    }
  }
  return undefined
}

// Lua 5.1 string literals: JSON's escapes of printable ASCII (\" and \\) mean the same there.
const lua = (text: string) => {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`not printable ASCII: ${text}`)
  return JSON.stringify(text)
}

/** The script: one request (built once by wrk) or several in turn (built per request). */
export function wrkScript(targets: Load[]): string {
  const requests = targets.map(
    ({ method, path, body }) =>
      `{ method = ${lua(method)}, path = ${lua(path)}, body = ${body === undefined ? 'nil' : lua(body)} }`,
  )
  return `local targets = { ${requests.join(', ')} }
wrk.headers["Content-Type"] = "application/json"
if #targets == 1 then
  wrk.method = targets[1].method
  wrk.path = targets[1].path
  wrk.body = targets[1].body
else
  local i = 0
  request = function()
    i = i % #targets + 1
    local t = targets[i]
    return wrk.format(t.method, t.path, nil, t.body)
  end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\n{"requests": %.0f, "us": %.0f, "errors": %.0f, "non2xx": %.0f, "mean": %.1f, "p50": %.0f, "p99": %.0f}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency.mean, latency:percentile(50), latency:percentile(99)))
end
`
}

type Done = {
  requests: number
  us: number
  errors: number
  non2xx: number
  mean: number
  p50: number
  p99: number
}

/** Drives `url` with wrk (one thread) for `seconds` s; latency from wrk's own histogram. */
export async function wrkLoad(
  wrk: string,
  url: string,
  targets: Load[],
  connections: number,
  seconds: number,
): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-bench-'))
  const script = join(dir, 'load.lua')
  writeFileSync(script, wrkScript(targets))
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url]
  try {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(wrk, args, (error, out, err) =>
        error ? reject(new Error(`wrk ${args.join(' ')}: ${error.message}\n${err}`)) : resolve(out),
      ),
    )
    const line = stdout
      .split('\n')
      .filter((l) => l.startsWith('{"requests"'))
      .at(-1)
    if (!line) throw new Error(`wrk printed no summary:\n${stdout}`)
    const done = JSON.parse(line) as Done
    const ms = (us: number) => Math.round(us / 10) / 100
    return {
      rps: Math.round(done.requests / (done.us / 1e6)),
      requests: done.requests,
      mean: ms(done.mean),
      p50: ms(done.p50),
      p99: ms(done.p99),
      errors: done.errors,
      non2xx: done.non2xx,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
