// The bench's own scripts bundled by esbuild and run by plain node, as the controller is: each is
// then one process whose CPU time /proc shows (tsx would run it in a child of its own) and none
// pays for compiling TypeScript. Bundled once per run, into a directory removed at exit.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'

const root = new URL('../../', import.meta.url).pathname
const SCRIPTS = ['hono-server', 'node-server', 'sims-in-turn'] as const
let bundling: Promise<string> | undefined

/** The path of bench/NAME.ts bundled (NAME.mjs). */
export async function bundled(name: (typeof SCRIPTS)[number]): Promise<string> {
  bundling ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-bench-'))
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
    await build({
      absWorkingDir: root,
      entryPoints: Object.fromEntries(SCRIPTS.map((s) => [s, `bench/${s}.ts`])),
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      logLevel: 'warning',
    })
    return dir
  })()
  return join(await bundling, `${name}.mjs`)
}
