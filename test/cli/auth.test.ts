// `spp-ctl auth add` and `--auth-file` as the installed command runs them.
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { buildDist } from '../helpers/build.ts'
import { portsOf, runCli as runController } from '../helpers/cli-child.ts'

const CLI = new URL('../../bin/spp-ctl.js', import.meta.url).pathname
const EPHEMERAL = ['-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', '0', '--state-dir', 'none']
type Run = { code: number; stdout: string; stderr: string }
const run = (args: string[]) =>
  new Promise<Run>((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr })
    })
  })
const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-auth-'))
const file = join(dir, 'auth.yaml')

test.before(buildDist)
test.after(() => rmSync(dir, { recursive: true, force: true }))

test('auth add prints a new token once; the file keeps its sha256 only, mode 0600', async () => {
  const ops = await run(['auth', 'add', 'ops', '--scope', 'write', '--auth-file', file])
  const dash = await run(['auth', 'add', 'dash', '--scope', 'read', '--auth-file', file])
  for (const r of [ops, dash]) {
    assert.is(r.code, 0, r.stderr)
    assert.match(r.stdout, /^[\w-]{43}\n$/)
    assert.match(r.stderr, /only time the token is shown/)
  }
  const text = readFileSync(file, 'utf8')
  const sha = (token: string) => createHash('sha256').update(token.trim()).digest('hex')
  assert.equal((parse(text) as { clients: unknown }).clients, [
    { name: 'ops', scope: 'write', sha256: sha(ops.stdout) },
    { name: 'dash', scope: 'read', sha256: sha(dash.stdout) },
  ])
  assert.not.ok(text.includes(ops.stdout.trim()) || text.includes(dash.stdout.trim()))
  assert.is(statSync(file).mode & 0o777, 0o600)
})

test('auth ls shows names and scopes, never a digest; auth rm removes one, keeping the rest', async () => {
  const listFile = join(dir, 'ls', 'deeper', 'auth.yaml') // directories made as the help says
  const ops = await run(['auth', 'add', 'ops', '--scope', 'write', '--auth-file', listFile])
  assert.is(ops.code, 0, ops.stderr)
  assert.match(ops.stderr, /^spp-ctl auth: created .*\/ls\n/)
  await run(['auth', 'add', 'grafana', '--scope', 'read', '--auth-file', listFile])
  const listed = await run(['auth', 'ls', '--auth-file', listFile])
  assert.equal([listed.code, listed.stdout], [0, 'NAME     SCOPE\nops      write\ngrafana  read\n'])
  const json = await run(['auth', 'ls', '--json', '--auth-file', listFile])
  assert.equal(JSON.parse(json.stdout), [
    { name: 'ops', scope: 'write' },
    { name: 'grafana', scope: 'read' },
  ])
  const digest = (parse(readFileSync(listFile, 'utf8')) as { clients: { sha256: string }[] })
    .clients[0]!.sha256
  assert.not.ok((listed.stdout + json.stdout).includes(digest.slice(0, 16)))

  const removed = await run(['auth', 'rm', 'ops', '--auth-file', listFile])
  assert.is(removed.code, 0, removed.stderr)
  assert.match(removed.stderr, /removed ops from .*auth\.yaml; .*SIGHUP/)
  const after = await run(['auth', 'ls', '--auth-file', listFile])
  assert.is(after.stdout, 'NAME     SCOPE\ngrafana  read\n')
  assert.is(statSync(listFile).mode & 0o777, 0o600, 'the mode is kept')
  const again = await run(['auth', 'rm', 'ops', '--auth-file', listFile])
  assert.equal(
    [again.code, again.stderr],
    [2, `spp-ctl auth: ${listFile}: no client is named ops (spp-ctl auth ls lists them)\n`],
  )
})

test('auth add without --scope says what is missing; an unknown option is named (exit 2)', async () => {
  const missing = await run(['auth', 'add', 'x', '--auth-file', file])
  assert.equal(
    [missing.code, missing.stderr],
    [
      2,
      "spp-ctl auth: add needs --scope read or --scope write\nRun 'spp-ctl auth --help' for usage.\n",
    ],
  )
  const unknown = await run(['auth', 'ls', '--scop', 'read', '--auth-file', file])
  assert.equal(
    [unknown.code, unknown.stderr],
    [2, "spp-ctl auth: unknown option --scop\nRun 'spp-ctl auth --help' for usage.\n"],
  )
})

test('SIGHUP reads the auth file again: a removed token is refused, a new one served; a bad file keeps the old', async () => {
  const live = join(dir, 'live.yaml')
  const first = (await run(['auth', 'add', 'first', '--scope', 'read', '--auth-file', live])).stdout
  const controller = runController([...EPHEMERAL, '--auth-file', live])
  try {
    const { apiPort } = await portsOf(controller)
    const status = (token: string) =>
      fetch(`http://127.0.0.1:${apiPort}/v1/processes`, {
        headers: { Authorization: `Bearer ${token.trim()}` },
      }).then((r) => r.status)
    const metric = async (outcome: string) => {
      const text = await (
        await fetch(`http://127.0.0.1:${apiPort}/metrics`, {
          headers: { Authorization: `Bearer ${first.trim()}` },
        })
      ).text()
      return new RegExp(`^spp_auth_reloads_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(
        text,
      )?.[1]
    }
    assert.is(await status(first), 200)
    assert.equal([await metric('done'), await metric('failed')], ['0', '0'])
    const second = (await run(['auth', 'add', 'second', '--scope', 'read', '--auth-file', live]))
      .stdout
    assert.is(await status(second), 401, 'not read before SIGHUP')
    controller.child.kill('SIGHUP')
    const [reloaded] = await controller.waitFor((l) => l.msg === 'auth file read again')
    assert.equal(reloaded!.clients, ['first', 'second'])
    assert.is(await status(second), 200)
    assert.is(await metric('done'), '1')

    assert.is((await run(['auth', 'rm', 'second', '--auth-file', live])).code, 0)
    controller.child.kill('SIGHUP')
    await controller.waitFor((l) => l.msg === 'auth file read again', 2)
    assert.is(await status(second), 401, 'removed')

    writeFileSync(live, 'clients:\n  - name: first\n    scope: root\n')
    controller.child.kill('SIGHUP')
    const [bad] = await controller.waitFor((l) => l.msg.startsWith('auth file not read again'))
    assert.match(String(bad!.reason), /live\.yaml: clients\.0\.scope/)
    assert.is(await status(first), 200, 'the clients in force are kept')
    assert.is(await metric('failed'), '1')
  } finally {
    controller.child.kill('SIGKILL')
  }
})

test('auth add refuses a name taken or reserved, and a scope it does not know (exit 2)', async () => {
  for (const args of [
    ['ops', '--scope', 'read'],
    ['local', '--scope', 'read'],
    ['new', '--scope', 'admin'],
    ['new'],
  ]) {
    const r = await run(['auth', 'add', ...args, '--auth-file', file])
    assert.is(r.code, 2, args.join(' '))
    assert.is(r.stdout, '')
  }
})

test('the controller serves the tokens of --auth-file and never prints one', async () => {
  const added = await run(['auth', 'add', 'cli', '--scope', 'read', '--auth-file', file])
  const token = added.stdout.trim()
  const child = spawn(process.execPath, [CLI, ...EPHEMERAL, '--auth-file', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  try {
    const lines = createInterface({ input: child.stderr })
    let port = 0
    for await (const line of lines) {
      output.push(line)
      const parsed = JSON.parse(line) as { msg: string; apiPort: number }
      if (parsed.msg === 'controller listening') {
        port = parsed.apiPort
        break
      }
    }
    const get = (auth?: string) =>
      fetch(`http://127.0.0.1:${port}/v1/processes`, {
        headers: auth ? { Authorization: auth } : {},
      }).then((r) => r.status)
    assert.is(await get(`Bearer ${token}`), 200)
    assert.is(await get(`bearer  ${token}`), 200) // the scheme is case-insensitive
    assert.is(await get(), 401)
    assert.is(await get(`Basic ${token}`), 401)
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    child.kill('SIGTERM')
    await once(child, 'exit')
    assert.not.ok(output.join('').includes(token.slice(0, 8)))
  } finally {
    child.kill('SIGKILL')
  }
})

test('a malformed --auth-file stops the start with exit 2, naming the file and the entry', async () => {
  const bad = join(dir, 'bad.yaml')
  writeFileSync(bad, 'clients:\n  - name: ops\n    scope: write\n    token: hunter2\n')
  const r = await run([...EPHEMERAL, '--auth-file', bad])
  assert.is(r.code, 2)
  assert.match(r.stderr, /--auth-file: .*bad\.yaml: clients\.0\.token: the file keeps/)
  assert.not.ok(r.stderr.includes('hunter2'))
  const missing = await run([...EPHEMERAL, '--auth-file', join(dir, 'none.yaml')])
  assert.is(missing.code, 2)
  assert.match(missing.stderr, /none\.yaml: ENOENT/)
})

test('an empty --auth-file (an unset variable) stops the start: it never serves open', async () => {
  const child = spawn(process.execPath, [CLI, ...EPHEMERAL, '--auth-file', ''], { stdio: 'pipe' })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
    if (stderr.includes('controller listening')) child.kill('SIGKILL') // started open: fail below
  })
  const [code] = (await once(child, 'exit')) as [number | null]
  assert.is(code, 2, stderr)
  assert.match(stderr, /--auth-file: .*ENOENT/)
})

test.run()
