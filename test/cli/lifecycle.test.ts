// The CLI as a process: start-up failures, a forced second signal, crashes as one JSON log line.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { createInterface } from 'node:readline'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startSims } from '../../src/sim/start-sims.ts'

const CLI = new URL('../../bin/spp-ctl.js', import.meta.url).pathname
const EPHEMERAL = ['-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', '0', '--state-dir', 'none']

type LogLine = { level: number; msg: string; [key: string]: unknown }

/** Runs the CLI; `waitFor(msg)` resolves with the first log line of that message. */
function runCli(args: string[], nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const stderr: string[] = []
  const logs: LogLine[] = []
  const waiters = new Set<() => void>()
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr.push(line)
    if (line.startsWith('{')) logs.push(JSON.parse(line) as LogLine)
    for (const wake of waiters) wake()
  })
  const waitFor = (msg: string) =>
    new Promise<LogLine>((resolve) => {
      const check = () => {
        const hit = logs.find((l) => l.msg === msg)
        if (!hit) return
        waiters.delete(check)
        resolve(hit)
      }
      waiters.add(check)
      check()
    })
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>
  return { child, stderr, logs, waitFor, exited }
}

test('a port in use is one line on stderr and exit status 1', async () => {
  const taken = createServer()
  taken.listen(0, '127.0.0.1')
  await once(taken, 'listening')
  const { port } = taken.address() as { port: number }
  try {
    const cli = runCli([...EPHEMERAL, '-a', String(port)])
    const [code] = await cli.exited
    assert.is(code, 1)
    assert.is(cli.stderr.length, 1, cli.stderr.join('\n'))
    assert.match(cli.stderr[0]!, /^spp-ctl: cannot start: .*EADDRINUSE/)
  } finally {
    taken.close()
  }
})

for (const [first, second, status] of [
  ['SIGTERM', 'SIGTERM', 143],
  ['SIGTERM', 'SIGINT', 130],
] as const) {
  test(`${first} then ${second} while a request is in flight exits at once with ${status}`, async () => {
    const cli = runCli([...EPHEMERAL, '--command-timeout', '60000'])
    const sims: Awaited<ReturnType<typeof startSims>> = []
    try {
      const ports = (await cli.waitFor('controller listening')) as Record<string, number>
      sims.push(
        ...(await startSims([{ kind: 'nfv', clientId: 1 }], {
          primaryPort: ports.primaryPort!,
          secondaryPort: ports.secondaryPort!,
          faults: { silentAt: 1 }, // never answers: the request would hold shutdown for 60 s
        })),
      )
      await cli.waitFor('process identified')
      const inFlight = fetch(`http://127.0.0.1:${ports.apiPort}/v1/nfvs/1`).catch(() => null)
      await once(sims[0]!, 'command')
      cli.child.kill(first)
      await cli.waitFor('shutting down')
      cli.child.kill(second)
      const [code] = await cli.exited
      assert.is(code, status)
      assert.is(cli.logs.at(-1)?.msg, 'second signal: exiting at once')
      await inFlight
    } finally {
      for (const sim of sims) sim.stop()
      cli.child.kill('SIGKILL')
    }
  })
}

test('an uncaught exception is one JSON log line, then exit status 1', async () => {
  // The preloaded module throws from a signal handler: an exception nothing catches.
  const thrower = `data:text/javascript,process.on('SIGUSR2', () => { throw new Error('boom') })`
  const cli = runCli(EPHEMERAL, ['--import', thrower])
  try {
    await cli.waitFor('controller listening')
    cli.child.kill('SIGUSR2')
    const [code] = await cli.exited
    assert.is(code, 1)
    const last = cli.stderr.at(-1)!
    const line = JSON.parse(last) as LogLine & { err: { message: string } }
    assert.is(line.level, 60)
    assert.is(line.err.message, 'boom')
    assert.ok(
      cli.stderr.every((l) => l.startsWith('{')),
      'nothing but JSON lines',
    )
  } finally {
    cli.child.kill('SIGKILL')
  }
})

test.run()
