// The baselines of the same run: the stack's minimal hono app (bench/hono-server.ts), or node's
// bare HTTP server (bench/node-server.ts), answering the bytes the controller answered, bundled and
// started with the installed command's #! line, as the controller is.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundled } from './bundle.ts'
import { startChild, stopChild } from './children.ts'
import { freePort } from '../../test/helpers/free-port.ts'
import { SHIPPED } from './controller-process.ts'
import type { Server } from './measure.ts'
import { shebangOf } from './shebang.ts'

/** Starts the hono app answering `responses` ("METHOD PATH" -> body, "" for 204). */
export const startHono = (responses: Record<string, string>) =>
  startBaseline('hono-server', responses)

/** Starts node's bare HTTP server answering `responses` (GETs only). */
export const startNodeHttp = (responses: Record<string, string>) =>
  startBaseline('node-server', responses)

async function startBaseline(
  script: 'hono-server' | 'node-server',
  responses: Record<string, string>,
): Promise<Server & { stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-hono-'))
  const file = join(dir, 'responses.json')
  writeFileSync(file, JSON.stringify(responses))
  const port = await freePort()
  const { nodeArgs, env } = shebangOf(SHIPPED)
  const child = await startChild(
    await bundled(script),
    [String(port), file],
    /listening/,
    'stdout',
    { nodeArgs, env },
  ).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true })
    throw error
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      await stopChild(child)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
