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

test.run()
