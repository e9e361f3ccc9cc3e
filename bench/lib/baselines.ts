// The baselines of the same run: a minimal hono app and a bare node:http server answering the
// bytes the controller answered. Bundled by esbuild and run by plain node, as the controller is,
// so each is one process whose CPU time /proc shows (tsx would run the server in a child of its
// own) and none pays for compiling TypeScript.
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { startChild, stopChild } from './children.ts'
import { freePort } from './controller-process.ts'

/** A server under test: where to send the load and whose CPU time to read. */
export type Server = { url: string; pid: number }
/** Both baselines, running. */
export type Baselines = { hono: Server; bare: Server; stop(): Promise<void> }

const root = new URL('../../', import.meta.url).pathname

/**
 * Bundles bench servers into `dir` as NAME.mjs, as the controller is shipped: compiled, not tsx.
 * better-sqlite3 (a native addon) stays outside, found through a link to node_modules.
 */
export async function bundleServers(dir: string, entryPoints: Record<string, string>) {
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: ['better-sqlite3'],
    logLevel: 'warning',
  })
}

/** Starts both, answering `responses` ("METHOD PATH" -> body, "" for 204). */
export async function startBaselines(responses: Record<string, string>): Promise<Baselines> {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-baselines-'))
  writeFileSync(join(dir, 'responses.json'), JSON.stringify(responses))
  await bundleServers(dir, { hono: 'bench/hono-server.ts', bare: 'bench/bare-server.ts' })
  const children: ChildProcess[] = []
  const start = async (name: string): Promise<Server> => {
    const port = await freePort()
    const child = await startChild(
      join(dir, `${name}.mjs`),
      [String(port), join(dir, 'responses.json')],
      /listening/,
    )
    children.push(child)
    return { url: `http://127.0.0.1:${port}`, pid: child.pid! }
  }
  return {
    hono: await start('hono'),
    bare: await start('bare'),
    async stop() {
      for (const child of children) await stopChild(child)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
