import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startSims } from '../../src/sim/start-sims.ts'
import { buildDist } from '../helpers/build.ts'

// The command as shipped: bin/ runs the build in dist/, made from the current src/ first.
const CLI = new URL('../../bin/spp-ctl.js', import.meta.url).pathname
test.before(buildDist)

const NO_STATE = ['--state-dir', 'none']

test('SIGTERM: stops accepting, lets the request in flight finish, then exits 0', async () => {
  const child = spawn(
    process.execPath,
    // debug: the read's own `command done` line (a change's is at info) is checked below
    [CLI, '-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', '0', '--log-level', 'debug', ...NO_STATE],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const sims: Awaited<ReturnType<typeof startSims>> = []
  try {
    const lines = createInterface({ input: child.stderr })
    const logs: { msg: string; [key: string]: unknown }[] = []
    const waitFor = (msg: string) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const found = logs.find((l) => l.msg === msg)
        if (found) return resolve(found)
        // A command that dies (say, an unbuilt dist/) fails the test instead of hanging it.
        child.once('exit', (code) =>
          reject(new Error(`spp-ctl exited with ${code} before "${msg}"`)),
        )
        const onLine = () => {
          const hit = logs.find((l) => l.msg === msg)
          if (hit) {
            lines.off('line', onLine)
            resolve(hit)
          }
        }
        lines.on('line', onLine)
      })
    lines.on('line', (line) => logs.push(JSON.parse(line) as (typeof logs)[number]))
    const { primaryPort, secondaryPort, apiPort } = (await waitFor(
      'controller listening',
    )) as Record<string, number>
    sims.push(
      ...(await startSims([{ kind: 'nfv', clientId: 1 }], {
        primaryPort: primaryPort!,
        secondaryPort: secondaryPort!,
      })),
    )
    await waitFor('process identified')
    const release = sims[0]!.hold() // the reply waits until SIGTERM has been handled
    const inFlight = fetch(`http://127.0.0.1:${apiPort}/v1/nfvs/1`)
    await once(sims[0]!, 'command')
    child.kill('SIGTERM')
    await waitFor('shutting down')
    release()
    const response = await inFlight
    assert.is(response.status, 200)
    assert.is(((await response.json()) as { 'client-id': number })['client-id'], 1)
    const [code] = (await once(child, 'exit')) as [number | null]
    assert.is(code, 0)
    const order = logs
      .map((l) => l.msg)
      .filter((m) => m === 'shutting down' || m === 'controller stopped')
    assert.equal(order, ['shutting down', 'controller stopped'], 'the last lines, flushed in order')
    const command = logs.find((l) => l.msg === 'command done')
    assert.equal([command?.process, command?.command, command?.outcome], ['nfv:1', 'status', 'ok'])
    assert.type(command?.req, 'string', 'the command log names the HTTP request')
    assert.ok(
      logs.some((l) => l.msg === 'http request' && l.req === command?.req && l.status === 200),
    )
  } finally {
    for (const sim of sims) sim.stop()
    child.kill('SIGKILL')
  }
})

for (const [flags, reason] of [
  [['--command-timeout', 'soon'], /^spp-ctl: --command-timeout must be an integer/],
  [['--log-format', 'xml'], /^spp-ctl: --log-format must be one of json, pretty\n/],
  [['--restore', 'maybe'], /^spp-ctl: --restore must be on, report or off, got "maybe"\n/],
  [['--journal-keep', '0'], /^spp-ctl: --journal-keep must be/],
  [['--bogus'], /^spp-ctl: unknown option --bogus\n/],
  [['--api-port'], /^spp-ctl: --api-port needs a value\n/],
  [['foo'], /^spp-ctl: unknown command foo: the commands are topology, fleet, journal, auth\n/],
] as const)
  test(`bad flags (${flags.join(' ')}) exit 2 with the reason and one line pointing at --help`, async () => {
    const child = spawn(process.execPath, [CLI, ...flags], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = (await once(child, 'exit')) as [number | null]
    assert.is(code, 2)
    assert.match(stderr, reason)
    // Two lines: the usage would scroll the reason away.
    assert.match(stderr, /^[^\n]+\nRun 'spp-ctl --help' for usage\.\n$/)
  })

test('--version prints the version of package.json and exits before the other flags are read', async () => {
  // The bad --log-level makes a CLI without --version exit 2 instead of starting to listen.
  const child = spawn(process.execPath, [CLI, '--version', '--log-level', 'loud'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  assert.is(code, 0)
  const { version } = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { version: string }
  assert.is(stdout, `${version}\n`)
})

test.run()
