// The floor of a command on this machine: node:http sending one command per request and doing
// nothing else (bench/command-server.ts); the least the project's stack does for it (hono, a
// valibot check and one xstate actor: bench/stack-command-server.ts); bare node:http answering the
// same bytes with no command; and the simulated nfv's raw round trip. What a controller could
// reach at best here, in node and on this stack.
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleServers, type Server } from './baselines.ts'
import { ENDPOINTS, type Endpoint } from './cases.ts'
import { startChild, stopChild } from './children.ts'
import { freePort } from './controller-process.ts'
import type { Figures, Generator } from './load.ts'
import { measure, medianOf, type Measured } from './measure.ts'
import { rawRoundTrips } from './raw-roundtrip.ts'

/** One case on the command server, the stack's command server and bare node:http. */
export type FloorRow = {
  case: string
  command: Measured
  stack: Measured
  /** The command server remembering each change (PUT only). */
  commandDurable?: Measured
  /** The stack's command server remembering each change (PUT only). */
  durable?: Measured
  bare: Measured
}
export type FloorResults = { rows: FloorRow[]; raw: Figures }

const CASES: [Endpoint, number][] = [
  ['GET /v1/nfvs/1', 1],
  ['PUT /v1/nfvs/1/patches', 1],
  ['GET /v1/nfvs/1', 64],
  ['PUT /v1/nfvs/1/patches', 64],
]

/** Measures each case on both servers in turn, `repeat` rounds, and the raw round trip. */
export async function floorCase(
  generator: Generator,
  { seconds, repeat }: { seconds: number; repeat: number },
  log: (line: string) => void,
): Promise<FloorResults> {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-floor-'))
  const children: ChildProcess[] = []
  try {
    await bundleServers(dir, {
      command: 'bench/command-server.ts',
      stack: 'bench/stack-command-server.ts',
      bare: 'bench/bare-server.ts',
    })
    // Each forwarding server takes its own simulator's connection before it listens for HTTP.
    const forwarding = async (name: string, ...more: string[]): Promise<Server> => {
      const [httpPort, wirePort] = [await freePort(), await freePort()]
      const args = [`${httpPort}`, `${wirePort}`, ...more]
      const server = await startChild(join(dir, `${name}.mjs`), args, /^wire ready/)
      children.push(server)
      const listening = new Promise<void>((resolve) =>
        server.stdout!.on('data', (chunk: Buffer) => chunk.includes('listening') && resolve()),
      )
      const sim = ['-p', `${wirePort}`, '-s', `${wirePort}`, '--nfv', '1', '--poll-ms', '0']
      children.push(await startChild('bin/spp-sim.js', sim, /connected/, 'stderr'))
      await listening
      return { url: `http://127.0.0.1:${httpPort}`, pid: server.pid! }
    }
    const command = await forwarding('command')
    const stack = await forwarding('stack')
    const commandDurable = await forwarding('command', join(dir, 'command-state'))
    const durable = await forwarding('stack', join(dir, 'stack-state'))
    const status = await fetch(`${command.url}/v1/nfvs/1`).then((r) => r.text())
    const responses = { 'GET /v1/nfvs/1': status, 'PUT /v1/nfvs/1/patches': '' }
    writeFileSync(join(dir, 'responses.json'), JSON.stringify(responses))
    const barePort = await freePort()
    const bareArgs = [`${barePort}`, join(dir, 'responses.json')]
    const bareChild = await startChild(join(dir, 'bare.mjs'), bareArgs, /listening/)
    children.push(bareChild)
    const bare: Server = { url: `http://127.0.0.1:${barePort}`, pid: bareChild.pid! }

    const runs = new Map<string, Measured[]>()
    for (let round = 1; round <= repeat; round++)
      for (const [endpoint, c] of CASES)
        for (const [name, server] of [
          ['command', command],
          ['stack', stack],
          ...(endpoint.startsWith('PUT')
            ? ([
                ['commandDurable', commandDurable],
                ['durable', durable],
              ] as const)
            : []),
          ['bare', bare],
        ] as const) {
          const figures = await measure(generator, server, ENDPOINTS[endpoint], c, seconds)
          const key = `${endpoint} x${c}\n${name}`
          runs.set(key, [...(runs.get(key) ?? []), figures])
          log(`${round}/${repeat} floor ${name}: ${endpoint} x${c}: ${figures.cpuUs} µs/req`)
        }
    const rows = CASES.map(([endpoint, c]) => ({
      case: `${endpoint} x${c}`,
      command: medianOf(runs.get(`${endpoint} x${c}\ncommand`)!),
      stack: medianOf(runs.get(`${endpoint} x${c}\nstack`)!),
      ...Object.fromEntries(
        (['commandDurable', 'durable'] as const)
          .filter((name) => runs.has(`${endpoint} x${c}\n${name}`))
          .map((name) => [name, medianOf(runs.get(`${endpoint} x${c}\n${name}`)!)]),
      ),
      bare: medianOf(runs.get(`${endpoint} x${c}\nbare`)!),
    }))
    for (const child of children.splice(0).reverse()) await stopChild(child)
    return { rows, raw: await rawRoundTrips(seconds) }
  } finally {
    for (const child of children.reverse()) await stopChild(child)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The floor as a table, and what fraction of the raw round trip a node server reaches. */
export function floorReport({ rows, raw }: FloorResults): string {
  const put = rows.find((r) => r.case === 'PUT /v1/nfvs/1/patches x64')
  const share = (rps: number) => `${Math.round((100 * rps) / raw.rps)}%`
  return [
    'The floor of a command on this machine: bare node:http sending one command per request and',
    "nothing else (bench/command-server.ts); the least the project's stack does for it, hono with a",
    'valibot check and one xstate actor owning the connection (bench/stack-command-server.ts); bare',
    'node:http answering the same bytes with no command; for PUT, both command servers also',
    'remembering each change in a state directory as the controller does (the configuration and a',
    "journal entry in the project's store, durable before the 204: the columns + state dir):",
    '',
    "| case | command server req/s | CPU µs/req | + state dir req/s | CPU µs/req | stack's command server req/s | CPU µs/req | + state dir req/s | CPU µs/req | bare node:http req/s | CPU µs/req | a command at least, µs |",
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.case} | ${r.command.rps} | ${r.command.cpuUs} | ` +
        `${r.commandDurable?.rps ?? '-'} | ${r.commandDurable?.cpuUs ?? '-'} | ` +
        `${r.stack.rps} | ${r.stack.cpuUs} | ${r.durable?.rps ?? '-'} | ${r.durable?.cpuUs ?? '-'} | ` +
        `${r.bare.rps} | ${r.bare.cpuUs} | ${Math.round(r.command.cpuUs! - r.bare.cpuUs!)} |`,
    ),
    '',
    `Raw nfv round trip: ${raw.rps}/s` +
      (put
        ? `; PUT x64 reaches ${share(put.command.rps)} of it on the command server ` +
          `(${put.commandDurable ? share(put.commandDurable.rps) : '-'} with the state directory), ` +
          `${share(put.stack.rps)} on the stack's ` +
          `(${put.durable ? share(put.durable.rps) : '-'} with the state directory).`
        : '.'),
  ].join('\n')
}
