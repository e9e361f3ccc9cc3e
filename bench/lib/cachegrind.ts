// A server of the benchmark under valgrind's cachegrind, counting the instructions it executes,
// and what its out-file says. Instruction counts repeat within about 2% from run to run, where CPU
// time on this machine moves by 10-20%, so a change of a few µs per request shows in them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

/**
 * Why the instructions case cannot run here, or undefined when it can. The out-files are read
 * by this module (countsOf), so valgrind is all it needs, not cg_diff or cg_annotate.
 */
export function cachegrindMissing(): string | undefined {
  const run = spawnSync('valgrind', ['--tool=cachegrind', '--version'], { encoding: 'utf8' })
  if (run.error) return `valgrind cannot be run (${run.error.message}; apt-get install valgrind)`
  if (run.status !== 0) return `valgrind --tool=cachegrind failed: ${run.stderr.trim()}`
  return undefined
}

/** A server running under cachegrind. */
export type Traced = {
  child: ChildProcess
  /** Resolves once the server has printed a line matching `pattern` on its standard output. */
  printed(pattern: RegExp): Promise<void>
  /** The last of what valgrind and the server wrote on standard error, for an error message. */
  tail(): string
  /** SIGTERM, and resolves once it has exited: cachegrind writes its out-file at the exit. */
  stop(): Promise<void>
}

/**
 * Runs `node [nodeArgs] script [args]` under cachegrind, its counts written to `out`. No cache
 * simulation: instructions are all this counts, and simulating caches would slow it further. The
 * server's logs and valgrind's own lines (standard error) are drained, their tail kept for the
 * error if it exits.
 */
export function startTraced(
  script: string,
  args: string[],
  { nodeArgs, env, out }: { nodeArgs: string[]; env: Record<string, string>; out: string },
): Traced {
  const valgrind = ['--tool=cachegrind', '--cache-sim=no', `--cachegrind-out-file=${out}`]
  const child = spawn('valgrind', [...valgrind, process.execPath, ...nodeArgs, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  let tail = ''
  child.stderr.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-2000)))
  const lines: string[] = []
  const waiting = new Set<() => void>()
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line)
    for (const check of waiting) check()
  })
  const exited = once(child, 'exit')
  return {
    child,
    printed: (pattern) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!lines.some((line) => pattern.test(line))) return
          waiting.delete(check)
          resolve()
        }
        waiting.add(check)
        check()
        child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${tail}`)))
      }),
    tail: () => tail,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

/**
 * V8's optimising compilers (TurboFan, Maglev) and its parser. Under valgrind V8 is still
 * compiling in the measured window, where natively it has stopped by then: each figure counts
 * these apart from the rest.
 */
const COMPILER =
  /v8::internal::compiler::|v8::internal::maglev|v8::internal::Zone|LiveRange|v8::internal::Scanner|v8::internal::Parser|v8::internal::PreParser|AstValueFactory|Utf16CharacterStream|CompilationJob|Turbofan|TurboFan/

/**
 * V8's mark-compact collections: marking (concurrent and incremental), sweeping, evacuating and
 * updating pointers, matched by name (a few of their helpers, about a tenth of one, are not). One
 * costs the stack's command server about 50 million instructions, and the two runs of a server
 * need not have had as many (the stack's server had one by request 2500 in one of three runs that
 * were otherwise alike), so each figure counts them apart from the rest too. Scavenges, a few in
 * every window, stay in the rest.
 */
const MARK_COMPACT =
  /MarkCompact|Marking|Sweep|Evacuat|PointersUpdating|RememberedSetUpdating|StringTableCleaner|MemoryChunkData/

/** A run's instructions: all of them, the compiler's and the mark-compacts'. */
export type Counts = { total: number; compiler: number; markCompact: number }

/**
 * Reads a cachegrind out-file: `fl=FILE` and `fn=FUNCTION` lines, each followed by `LINE COUNT`
 * lines (one event, Ir, with --cache-sim=no), and a `summary:` line with the total. Read here
 * rather than through cg_diff and cg_annotate: the sums need no more than this, and a function is
 * matched against `FILE:FUNCTION` as cg_annotate prints it.
 */
export function countsOf(out: string): Counts {
  const counts = { total: NaN, compiler: 0, markCompact: 0 }
  let file = ''
  let group: 'compiler' | 'markCompact' | undefined
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (line.startsWith('fl=')) file = line.slice(3)
    else if (line.startsWith('fn=')) {
      const name = `${file}:${line.slice(3)}`
      group = COMPILER.test(name) ? 'compiler' : MARK_COMPACT.test(name) ? 'markCompact' : undefined
    } else if (line.startsWith('summary:')) counts.total = Number(line.slice(8))
    else if (group && /^\d/.test(line)) counts[group] += Number(line.split(' ')[1])
  }
  if (Number.isNaN(counts.total)) throw new Error(`${out} has no summary line`)
  return counts
}
