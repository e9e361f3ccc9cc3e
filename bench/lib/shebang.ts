// What a script's `#!` line adds when the kernel runs it: node's flags and environment variables.
import { readFileSync } from 'node:fs'

/** The variables and node flags of a `#!/usr/bin/env -S [VAR=value ...] node [flags]` line. */
export function shebangOf(script: string): { env: Record<string, string>; nodeArgs: string[] } {
  const first = readFileSync(script, 'utf8').split('\n', 1)[0] ?? ''
  const words = /^#!\/usr\/bin\/env -S (.*)$/.exec(first)?.[1]?.trim().split(/\s+/) ?? []
  const at = words.indexOf('node')
  if (at === -1) return { env: {}, nodeArgs: [] }
  const env = Object.fromEntries(words.slice(0, at).map((w) => w.split('=', 2) as [string, string]))
  return { env, nodeArgs: words.slice(at + 1) }
}
