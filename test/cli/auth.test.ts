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
