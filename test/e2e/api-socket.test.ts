// --api-socket: the API on a unix socket, mode 0660 and its group, trusted as the local administrator.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken } from '../../src/auth/clients.ts'
import { DEFAULTS, startController } from '../../src/controller/controller.ts'
import { resolveGroup } from '../../src/http/api-socket.ts'
import { silentLogger } from '../../src/log/logger.ts'
import { withHarness } from '../helpers/harness.ts'
import { captureLogs } from '../helpers/log-capture.ts'

const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-socket-'))
const path = join(dir, 'api.sock')
const clients = [{ name: 'ops', scope: 'write' as const, digest: digestOf(newToken()) }]
test.after(() => rmSync(dir, { recursive: true, force: true }))

/** One request over the unix socket, with no token. */
async function local(method: string, target: string, body?: string) {
  const req = request({ socketPath: path, method, path: target })
  req.end(body)
  const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage]
  let text = ''
  for await (const chunk of res) text += String(chunk)
  return { status: res.statusCode, text }
}

test('a group is resolved by getent (name or number); an unknown name is an error', () => {
  const daemon = /^daemon:[^:]*:(\d+):/m.exec(readFileSync('/etc/group', 'utf8'))?.[1]
  assert.is(resolveGroup('daemon'), Number(daemon))
  assert.is(resolveGroup('4242'), 4242)
  assert.throws(() => resolveGroup('no-such-group-spp'), /no group named "no-such-group-spp"/)
})

test('the socket is mode 0660 with its group; on it a request needs no token and is local', async () => {
  const { log, lines } = captureLogs('debug') // a read's request line is debug
  const gid = resolveGroup('daemon')
  await withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const stat = statSync(path)
      assert.ok(stat.isSocket())
      assert.is(stat.mode & 0o777, 0o660)
      assert.is(stat.gid, gid)
      assert.is((await local('GET', '/v1/nfvs/1')).status, 200)
      assert.is((await local('PUT', '/v1/nfvs/1/forward', '{"action":"start"}')).status, 204)
      assert.equal(h.sim('nfv 1').received.slice(1), ['status', 'forward'])
      assert.is((await h.api('PUT', '/v1/nfvs/1/forward', { action: 'stop' })).status, 401)
      const who = lines.filter((l) => l.msg === 'http request').map((l) => l.who)
      assert.equal(who.slice(0, 2), ['local', 'local'])
      assert.match(String(who[2]), /^anonymous 127\.0\.0\.1:/)
    },
    { clients, apiSocket: { path, gid }, log },
  )
  assert.not.ok(existsSync(path), 'the socket file goes with the controller')
})

const start = () =>
  startController({
    ...DEFAULTS,
    host: '127.0.0.1',
    primaryPort: 0,
    secondaryPort: 0,
    apiPort: 0,
    log: silentLogger(),
    apiSocket: { path },
  })

test('a socket file left by a killed controller is replaced; a live one or a plain file is not', async () => {
  // A process that listens on the path and is killed: its socket file stays, nobody behind it.
  const killed = spawn(process.execPath, [
    '-e',
    `require('net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`,
  ])
  await once(killed, 'exit')
  assert.ok(statSync(path).isSocket())
  const controller = await start()
  try {
    assert.is((await local('GET', '/v1/processes')).text, '[]')
  } finally {
    await controller.close()
  }

  const live = createServer().listen(path)
  await once(live, 'listening')
  try {
    await start().then(
      (c) => c.close().then(() => assert.unreachable('started on a live socket')),
      (error: Error) => assert.match(error.message, /another process is listening/),
    )
  } finally {
    live.close()
  }

  writeFileSync(path, 'not a socket')
  await start().then(
    (c) => c.close().then(() => assert.unreachable('started over a plain file')),
    (error: Error) => assert.match(error.message, /is not a socket: not removing it/),
  )
  assert.is(readFileSync(path, 'utf8'), 'not a socket')
  rmSync(path)
})

test.run()
