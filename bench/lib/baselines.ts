// The baseline of the same run: the stack's minimal hono app (bench/hono-server.ts) answering the
// bytes the controller answered. Bundled by esbuild and run by plain node with the installed
// command's #! line, as the controller is, so it is one process whose CPU time /proc shows (tsx
// would run the server in a child of its own) and it pays nothing for compiling TypeScript.
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { startChild, stopChild } from './children.ts'
import { freePort, SHIPPED } from './controller-process.ts'
import type { Server } from './measure.ts'
import { shebangOf } from './shebang.ts'

const root = new URL('../../', import.meta.url).pathname

/** Starts the hono app answering `responses` ("METHOD PATH" -> body, "" for 204). */
export async function startHono(
  responses: Record<string, string>,
): Promise<Server & { stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-hono-'))
  writeFileSync(join(dir, 'responses.json'), JSON.stringify(responses))
  await build({
    absWorkingDir: root,
    entryPoints: { hono: 'bench/hono-server.ts' },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    logLevel: 'warning',
  })
  const port = await freePort()
  const { nodeArgs, env } = shebangOf(SHIPPED)
  let child: ChildProcess
  try {
    child = await startChild(
      join(dir, 'hono.mjs'),
      [String(port), join(dir, 'responses.json')],
      /listening/,
      'stdout',
      { nodeArgs, env },
    )
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      await stopChild(child)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
