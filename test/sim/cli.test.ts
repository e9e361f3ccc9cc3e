// spp-sim's flags for what differs between hosts, run as a user runs it (the source, by tsx).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const CLI = new URL('../../src/spp-sim.ts', import.meta.url).pathname
const simCli = (args: string[]) =>
  spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })

test('-n, --phy-ports and --lcores shape the primary: 6 rings, 3 phy ports, no forwarder', async () => {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  const accepted = once(server, 'connection') as Promise<[Socket]>
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
    const [socket] = await accepted
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

test.run()
