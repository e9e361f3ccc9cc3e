// One figure of a server under test: a warm-up, then the load generator's run with the server's
// CPU time read from /proc just before and just after it.
import type { Figures, Load } from './figures.ts'
import { load, type Generator } from './load.ts'
import { cpuSeconds } from './proc.ts'

/** A server under test: where to send the load and whose CPU time to read. */
export type Server = { url: string; pid: number }

/** Loads `server` for 1 s, then for `seconds` s measuring its CPU time per request answered. */
export async function measure(
  generator: Generator,
  server: Server,
  target: Load | Load[],
  connections: number,
  seconds: number,
): Promise<Figures> {
  await load(generator, server.url, target, connections, 1)
  const from = performance.now()
  const before = cpuSeconds(server.pid)
  const figures = await load(generator, server.url, target, connections, seconds)
  const cpu = cpuSeconds(server.pid) - before
  const wallSeconds = (performance.now() - from) / 1000
  return {
    ...figures,
    cpuUs: figures.requests > 0 ? Math.round((cpu * 1e6) / figures.requests) : NaN,
    cpu: Math.round((100 * cpu) / wallSeconds),
  }
}
