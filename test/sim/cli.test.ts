// spp-sim run as a user runs it (bin/spp-sim.js, built from the current src/ first).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type Server, type Socket } from 'node:net'
import { createInterface } from 'node:readline'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { buildDist } from '../helpers/build.ts'
import { freePort } from '../helpers/free-port.ts'

const CLI = new URL('../../bin/spp-sim.js', import.meta.url).pathname
test.before(buildDist)
const simCli = (args: string[]) =>
  spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
/** Resolves with the first connection to `server`; rejects if the simulator exits first. */
const accepted = (server: ReturnType<typeof createServer>, child: ReturnType<typeof simCli>) =>
  Promise.race([
    once(server, 'connection') as Promise<[Socket]>,
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`spp-sim exited ${code}`))),
  ])

test('-n, --phy-ports and --lcores shape the primary: 6 rings, 3 phy ports, no forwarder', async () => {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  const args = [
    '--primary',
    '--era',
    '2020',
    '-n',
    '6',
    '--phy-ports',
    '3',
    '--lcores',
    'primary=0',
  ]
  const child = simCli([...args, '-p', String(port), '-s', '1'])
  try {
    const [socket] = await accepted(server, child)
    let reply = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => (reply = Buffer.concat([reply, chunk])))
    socket.write('status')
    while (reply.length < 32768) await once(socket, 'data')
    const status = JSON.parse(reply.toString('latin1').replace(/\0+$/, '')) as Record<string, []>
    assert.equal(status['lcores'], [0])
    assert.not.ok('forwarder' in status)
    assert.is(status['ring_ports']!.length, 6)
    assert.is(status['phy_ports']!.length, 3)
    socket.destroy()
  } finally {
    child.kill()
    server.close()
  }
})

test('a bad --lcores is refused with its reason, exit status 2', async () => {
  const child = simCli(['--vf', '2', '--lcores', 'vf=1'])
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number]
  assert.is(code, 2)
  assert.match(stderr, /a vf needs a main lcore and at least one worker lcore/)
})

const listen = async (port: number) => {
  const server = createServer().listen(port, '127.0.0.1')
  await once(server, 'listening')
  return server
}

/** spp-sim's stderr lines; `until(pattern, n)` waits for the nth line that matches. */
const linesOf = (child: ReturnType<typeof simCli>) => {
  const lines: string[] = []
  const wakes = new Set<() => void>()
  createInterface({ input: child.stderr }).on('line', (line) => {
    lines.push(line)
    for (const wake of wakes) wake()
  })
  const closed = once(child.stderr, 'close')
  // A line that never comes fails the test (the simulator is stopped) instead of hanging it.
  const failsafe = setTimeout(() => child.kill('SIGKILL'), 30_000)
  void closed.then(() => clearTimeout(failsafe))
  const until = (pattern: RegExp, n = 1) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (lines.filter((l) => pattern.test(l)).length < n) return
        wakes.delete(check)
        resolve()
      }
      wakes.add(check)
      check()
      void closed.then(() => {
        if (wakes.delete(check)) reject(new Error(`no ${pattern} (${n}):\n${lines.join('\n')}`))
      })
    })
  return { lines, until, closed }
}

/** Plays the controller's handshake with an nfv: once it answers, it has seen the connection. */
const handshake = async (socket: Socket) => {
  socket.write('_get_client_id')
  await once(socket, 'data')
}

test('started before its controller, spp-sim says once that it waits, then connects; it says "disconnected" and "connected again" once each', async () => {
  const port = await freePort()
  const child = simCli(['--nfv', '1', '-p', '1', '-s', String(port)])
  const { lines, until, closed } = linesOf(child)
  const waiting = new RegExp(
    `^spp-sim: waiting for the controller at 127\\.0\\.0\\.1:${port} \\(connection refused\\)`,
  )
  let server: Server | undefined
  try {
    await until(waiting)
    server = await listen(port)
    const [first] = await accepted(server, child)
    await handshake(first)
    server.close() // nothing listens any more: its attempts to reconnect are refused
    first.destroy()
    await until(waiting, 2)
    server = await listen(port)
    const [second] = await accepted(server, child)
    await handshake(second)
    child.kill('SIGINT') // stops at once: it has nothing more to say

    await closed
  } finally {
    child.kill('SIGKILL')
    server?.close()
  }
  const said = lines.filter((l) => !l.includes(' <- ')) // the commands it read are echoed too
  assert.equal(said, [
    `spp-sim: waiting for the controller at 127.0.0.1:${port} (connection refused); trying again until it answers`,
    'spp-sim: nfv 1 (18.11) connected',
    'spp-sim: nfv 1 disconnected',
    `spp-sim: waiting for the controller at 127.0.0.1:${port} (connection refused); trying again until it answers`,
    'spp-sim: nfv 1 (18.11) connected again',
  ])
})

test('a bad traffic flag is refused naming the flag, exit status 2', async () => {
  const cases: [string[], RegExp][] = [
    [['--traffic', 'phy:2=100'], /spp-sim: --traffic phy:2=100: no such port \(phy:0 to phy:1\)/],
    [['--traffic', 'phy:0=1', '--traffic', 'phy:0=2'], /spp-sim: --traffic phy:0: given twice/],
    [['--reader-pps', 'vf:2=10'], /spp-sim: --reader-pps vf:2: no such process is started/],
    [['--reader-pps', 'vf:2'], /spp-sim: --reader-pps vf:2: expected PROC=PPS/],
    [['--traffic-macs', 'nope'], /spp-sim: --traffic-macs nope: "nope" is not a MAC address/],
  ]
  for (const [flags, message] of cases) {
    const child = simCli(['--primary', '--nfv', '1', ...flags])
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    // A simulator that takes the flag runs on: it is stopped, and the test fails, instead of hanging.
    const failsafe = setTimeout(() => child.kill('SIGKILL'), 10_000)
    const [code] = (await once(child, 'exit')) as [number]
    clearTimeout(failsafe)
    assert.is(code, 2, flags.join(' '))
    assert.match(stderr, message)
  }
})

/** Sends a command to an 18.11 primary or nfv and resolves with its 2048-byte reply's text. */
async function ask(socket: Socket, line: string): Promise<string> {
  let reply = Buffer.alloc(0)
  const take = (chunk: Buffer) => (reply = Buffer.concat([reply, chunk]))
  socket.on('data', take)
  socket.write(line)
  while (reply.length < 2048) await once(socket, 'data')
  socket.off('data', take)
  return reply.toString('latin1').replace(/\0+$/, '')
}

test('--traffic: packets arrive on phy:0, and the primary counts what nfv 1 takes of them', async () => {
  const primaryServer = await listen(await freePort())
  const secondaryServer = await listen(await freePort())
  const port = (server: Server) => String((server.address() as { port: number }).port)
  const args = ['--primary', '--nfv', '1', '--traffic', 'phy:0=1000000']
  const child = simCli([...args, '-p', port(primaryServer), '-s', port(secondaryServer)])
  try {
    const [[primary], [nfv]] = await Promise.all([
      accepted(primaryServer, child),
      accepted(secondaryServer, child),
    ])
    const rx = async () =>
      (JSON.parse(await ask(primary, 'status')) as { phy_ports: { rx: number }[] }).phy_ports[0]!.rx
    assert.is(await ask(nfv, '_get_client_id'), '1')
    await ask(nfv, 'patch phy:0 phy:1')
    assert.is(await rx(), 0, 'nothing polls phy:0 yet')
    await ask(nfv, 'forward')
    // A million packets a second: the next reads find some (no fixed wait: each read is a round trip).
    let counted = 0
    for (let read = 0; read < 1000 && counted === 0; read++) counted = await rx()
    assert.ok(counted > 0, 'phy:0 rx grows once nfv 1 forwards')
  } finally {
    child.kill()
    primaryServer.close()
    secondaryServer.close()
  }
})

test.run()
