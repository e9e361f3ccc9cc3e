// What a request costs in instructions: the controller, the stack's command server and the
// minimal hono app, each under valgrind's cachegrind, answering one request after another on one
// connection. Each server runs twice, answering WARM + WINDOWS[0] and WARM + WINDOWS[1] requests;
// the difference of the two runs' counts is what the requests between cost, with the start-up,
// the warm-up and the exit taken out. A run's requests all go over one connection: a new one after
// the warm-up deoptimised about 30 functions of node's streams, sockets and HTTP parser (a wrong
// map, in --trace-deopt), and under valgrind V8 was still optimising them again through the
// window (hono's PUT 145-156K instructions a request, the controller's 277K, against 104-110K and
// 207-235K over one connection).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleServers } from './baselines.ts'
import { countsOf, cachegrindMissing, type Counts } from './cachegrind.ts'
import { ENDPOINTS, type Endpoint } from './cases.ts'
import { oneConnection, sendInTurn } from './sequential.ts'
import { controller, hono, stack, type Starter } from './traced-servers.ts'

/**
 * Requests before either window. The native bench warms each case up for 1 s, about 2000 requests
 * at one connection here, so the window counted begins about where the native bench's does, once
 * V8 has compiled the request's code.
 */
const WARM = 2000
/**
 * Requests after the warm-up in the two runs of a server. What the second run counts beyond the
 * first is the 1000 requests between (2501-3500 after the start): one server's start-up and exit
 * cost the same in both, and the difference removes them.
 */
const WINDOWS = [500, 1500] as const

const CASES: Endpoint[] = ['PUT /v1/nfvs/1/patches', 'GET /v1/nfvs/1']
const SERVERS = ['controller', 'stack', 'hono'] as const
type ServerName = (typeof SERVERS)[number]

/** Instructions per request of one case on one server, in the window. */
export type InstructionRow = {
  case: Endpoint
  server: ServerName
  /** All of them; V8's optimising compilers and parser; its mark-compacts; and the rest. */
  total: number
  compiler: number
  markCompact: number
  rest: number
  /** Each run's whole count. */
  runs: (Counts & { requests: number })[]
}
export type InstructionResults =
  { warm: number; windows: readonly number[]; rows: InstructionRow[] } | { skipped: string }

/** Counts each case on each server, or says why it cannot here. */
export async function instructionsCase(log: (line: string) => void): Promise<InstructionResults> {
  const missing = cachegrindMissing()
  if (missing) return { skipped: missing }
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-instructions-'))
  try {
    await bundleServers(dir, {
      stack: 'bench/stack-command-server.ts',
      hono: 'bench/hono-server.ts',
    })
    // The hono app answers the bytes the controller answered, so the controller runs first.
    const responses = { 'GET /v1/nfvs/1': '', 'PUT /v1/nfvs/1/patches': '' }
    const responsesFile = join(dir, 'responses.json')
    const starters: Record<ServerName, Starter> = {
      controller: controller((body) => (responses['GET /v1/nfvs/1'] = body)),
      stack: stack(dir),
      hono: async (out) => {
        writeFileSync(responsesFile, JSON.stringify(responses))
        return hono(dir, responsesFile)(out)
      },
    }
    const rows: InstructionRow[] = []
    for (const endpoint of CASES)
      for (const server of SERVERS) {
        const runs = []
        for (const requests of WINDOWS) {
          const out = join(dir, `${server}-${requests}.out`)
          const running = await starters[server](out)
          const agent = oneConnection()
          try {
            await sendInTurn(running.url, ENDPOINTS[endpoint], WARM + requests, agent)
          } finally {
            agent.destroy()
            await running.stop()
          }
          runs.push({ requests, ...countsOf(out) })
          log(`instructions ${server}: ${endpoint}, ${WARM} + ${requests}: ${runs.at(-1)!.total}`)
        }
        const [first, second] = [runs[0]!, runs[1]!]
        const window = WINDOWS[1] - WINDOWS[0]
        const [total, compiler, markCompact] = (['total', 'compiler', 'markCompact'] as const).map(
          (key) => Math.round((second[key] - first[key]) / window),
        ) as [number, number, number]
        const rest = total - compiler - markCompact
        rows.push({ case: endpoint, server, total, compiler, markCompact, rest, runs })
      }
    return { warm: WARM, windows: WINDOWS, rows }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The table, with what the controller does beyond each baseline; or the line saying why not. */
export function instructionsReport(results: InstructionResults): string {
  if ('skipped' in results) return `Instructions per request: skipped, ${results.skipped}.`
  const k = (n: number) => `${(n / 1000).toFixed(1)}K`
  const lines = results.rows.map((r) => {
    const own = results.rows.find((o) => o.case === r.case && o.server === 'controller')
    const over = r.server === 'controller' || !own ? '' : k(own.rest - r.rest)
    const share = (n: number) => `${k(n)} (${Math.round((100 * n) / r.total)}%)`
    return `| ${r.case} | ${r.server} | ${k(r.rest)} | ${share(r.compiler)} | ${share(r.markCompact)} | ${over} |`
  })
  const window = results.windows[1]! - results.windows[0]!
  return [
    `Instructions per request under cachegrind (user space, all threads), one connection: the ` +
      `${window} requests after ${results.warm + results.windows[0]!}, the difference of two runs ` +
      `of each server. V8's optimising compilers and parser (still at work under valgrind where ` +
      `natively they have stopped) and its mark-compacts (one falls in the window in some runs ` +
      `and not in others) are counted apart from the rest, with their share of all; ` +
      `controller − stack and controller − hono, of the rest, are in the stack's and hono's rows:`,
    '',
    '| case | server | instructions per request | compiler and parser | mark-compacts | controller − this |',
    '| --- | --- | --- | --- | --- | --- |',
    ...lines,
  ].join('\n')
}
