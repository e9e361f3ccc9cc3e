// npm run demo as a person sees it on a terminal (readable log lines around its text) and as a pipe
// sees it (JSON log lines on stderr); and the shipped bundle's pretty logs with no node_modules.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { buildDist } from './helpers/build.ts'

const dist = new URL('../dist/', import.meta.url).pathname
const SPP_CTL = new URL('../bin/spp-ctl.js', import.meta.url).pathname
const DEMO = ['-p', '0', '-s', '0', '-a', '0', '--poll-ms', '0']
const BANNER_END = 'Ctrl-C stops everything.'
test.before(buildDist)

// eslint-disable-next-line no-control-regex -- the colours of a terminal are escape sequences
const plain = (text: string) => text.replace(/\x1b\[\d+m/g, '').replace(/\r/g, '')

test('on a terminal the demo’s logs are one readable line each, around its own text', async () => {
  // script(1) runs the demo on a pseudo-terminal (stdout and stderr both); Ctrl-C reaches it
  // through the terminal, as it would a person's. script runs the command through $SHELL -c, and
  // dash (Debian's /bin/sh, script's choice when SHELL is unset) stays as the demo's parent and
  // dies of the Ctrl-C itself (exit 130) however cleanly the demo stops: `exec` makes the demo
  // script's child in every shell, and SHELL is fixed so every environment runs the same.
  const command = ['exec', process.execPath, join(dist, 'demo.js'), ...DEMO].join(' ')
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    stdio: 'pipe',
    env: { ...process.env, SHELL: '/bin/sh' },
  })
  try {
    let seen = ''
    let stopped = false
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (stopped || !seen.includes(BANNER_END)) return
      stopped = true
      child.stdin.write('\x03')
    })
    const [code, signal] = (await once(child, 'close')) as [number | null, string | null]
    // How it ended first, then the end of what it printed: what CI's log keeps of a failure.
    const tail = plain(seen).split('\n').slice(-30).join('\n')
    assert.is(
      code,
      0,
      `exit code ${code}, signal ${signal}, stopped by Ctrl-C: ${stopped}\n${tail}`,
    )
    const lines = plain(seen).split('\n')
    const logs = lines.filter((l) => /^\[\d\d:\d\d:\d\d\.\d{3}\] [A-Z]+: /.test(l))
    assert.ok(logs.some((l) => / INFO: controller listening \{"host":/.test(l)))
    assert.ok(logs.some((l) => / INFO: process identified \{"process":"mirror:3"/.test(l)))
    assert.ok(logs.at(-1)?.endsWith(' INFO: controller stopped'), 'the last line, at exit')
    assert.not.ok(
      lines.some((l) => l.startsWith('{')),
      'no JSON line on a terminal',
    )
    assert.ok(lines.some((l) => l.startsWith('spp-ctl is running on http://localhost:')))
  } finally {
    child.kill('SIGKILL')
  }
})

test('on a pipe the demo’s logs are JSON lines on stderr, and its text alone is on stdout', async () => {
  const child = spawn(process.execPath, [join(dist, 'demo.js'), ...DEMO], { stdio: 'pipe' })
  try {
    let stdout = ''
    let stderr = ''
    let stopped = false
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stopped || !stdout.includes(BANNER_END)) return
      stopped = true // once: a second signal would end it at once
      child.kill('SIGINT')
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = (await once(child, 'exit')) as [number | null]
    assert.is(code, 0, stderr)
    const logs = stderr
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string })
    assert.ok(logs.some((l) => l.msg === 'process identified'))
    assert.is(logs.at(-1)?.msg, 'controller stopped')
    assert.not.match(stdout, /"level"|INFO/)
    // A fresh temporary state directory, removed at exit.
    const dir = /it remembers in (\S+spp-ctl-demo-\w+)\./.exec(stdout)?.[1]
    assert.ok(dir, stdout)
    assert.not.ok(existsSync(dir), `${dir} is left behind`)
  } finally {
    child.kill('SIGKILL')
  }
})

test('a port in use: the demo says so in one line, as the controller does, and leaves nothing behind', async () => {
  const taken = createServer().listen(0, '127.0.0.1')
  await once(taken, 'listening')
  const { port } = taken.address() as { port: number }
  const tmp = mkdtempSync(join(tmpdir(), 'spp-ctl-demo-tmp-')) // its TMPDIR: what it leaves there
  try {
    const args = [join(dist, 'demo.js'), ...DEMO, '-a', String(port)]
    const child = spawn(process.execPath, args, {
      stdio: 'pipe',
      env: { ...process.env, TMPDIR: tmp },
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = (await once(child, 'close')) as [number | null]
    assert.is(code, 1, stderr)
    assert.match(stderr, /^demo: cannot start: listen EADDRINUSE: address already in use \S+\n$/)
    assert.equal(readdirSync(tmp), [], 'its temporary state directory is removed')
  } finally {
    taken.close()
    rmSync(tmp, { recursive: true, force: true })
  }
})

test('SIGHUP (a closed terminal) stops the demo as Ctrl-C does, its state directory removed', async () => {
  const child = spawn(process.execPath, [join(dist, 'demo.js'), ...DEMO], { stdio: 'pipe' })
  try {
    child.stderr.resume() // its log lines
    let stdout = ''
    let stopped = false
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stopped || !stdout.includes(BANNER_END)) return
      stopped = true
      child.kill('SIGHUP')
    })
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null]
    assert.is(signal, null, 'it stops itself, not killed by the signal')
    assert.is(code, 0)
    const dir = /it remembers in (\S+spp-ctl-demo-\w+)\./.exec(stdout)?.[1]
    assert.ok(dir, stdout)
    assert.not.ok(existsSync(dir), `${dir} is left behind`)
  } finally {
    child.kill('SIGKILL')
  }
})

test('on other ports the demo’s spp-ctl lines say where it is, and each runs; get is stable', async () => {
  const { SPP_CTL_URL: _, ...env } = process.env
  const child = spawn(process.execPath, [join(dist, 'demo.js'), ...DEMO], { stdio: 'pipe', env })
  const work = mkdtempSync(join(tmpdir(), 'spp-ctl-try-'))
  try {
    child.stderr.resume() // its log lines
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    while (!stdout.includes(BANNER_END)) await once(child.stdout, 'data')
    const api = /^spp-ctl is running on (\S+);/m.exec(stdout)?.[1]
    const lines = stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^(?:export SPP_CTL_URL=|npx spp-ctl )/.test(line))
    assert.match(lines[0] ?? '', `export SPP_CTL_URL=${api} `, 'first, where the demo is')
    const commands = lines.slice(1).map((line) => line.replace(/ +#.*/, ''))
    assert.equal(commands, [
      'npx spp-ctl topology get > chain.yaml',
      'npx spp-ctl topology plan -f chain.yaml',
      'npx spp-ctl topology apply -f chain.yaml',
      'npx spp-ctl journal',
    ])
    // As a shell runs them, the built command for npx's, in a directory of the test's (a user's
    // clone: npm test passes with the file there). The exported URL goes in as --url too: this
    // checks the lines, not the commands' reading of the variable.
    const script = [
      `npx() { shift; ${JSON.stringify(process.execPath)} ${JSON.stringify(SPP_CTL)} "$@" --url "$SPP_CTL_URL"; }`,
      'set -e',
      ...lines,
    ].join('\n')
    const { stdout: said } = await promisify(execFile)('bash', ['-c', script], { env, cwd: work })
    assert.match(said, 'No changes: the live topology already matches.', 'plan of what get wrote')
    // the document is the same however often it is read: a file to keep, edit and compare
    const again = await promisify(execFile)(process.execPath, [
      SPP_CTL,
      'topology',
      'get',
      '--url',
      api!,
    ])
    assert.is(again.stdout, readFileSync(join(work, 'chain.yaml'), 'utf8'))
  } finally {
    child.kill('SIGKILL')
    rmSync(work, { recursive: true, force: true })
  }
})

test('the Try list builds a whole chain, readers first: fwd1 with its rx and tx, then the nfv', async () => {
  const child = spawn(process.execPath, [join(dist, 'demo.js'), ...DEMO], { stdio: 'pipe' })
  try {
    child.stderr.resume() // its log lines
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    while (!stdout.includes(BANNER_END)) await once(child.stdout, 'data')
    const from = stdout.indexOf('\nTry')
    const tries = stdout
      .slice(from, stdout.indexOf('\nAnd with', from))
      .split('\n')
      .map((line) => /^ {2}curl -s (?:-X (\w+) )?(\S+)(?: -d '([^']*)')?$/.exec(line))
      .filter((match) => match !== null)
    const changes: string[] = []
    for (const [line, method = 'GET', url, body] of tries) {
      const r = await fetch(url!, { method, body })
      assert.ok(r.ok, `${line}: ${r.status} ${await r.text()}`)
      if (method !== 'GET') changes.push(new URL(url!).pathname)
    }
    // Readers first: the vf's changes before any of the nfv's, which sends packets into ring:0.
    const firstNfv = changes.findIndex((path) => path.startsWith('/v1/nfvs/'))
    assert.ok(firstNfv > 0, changes.join(' '))
    assert.ok(changes.slice(0, firstNfv).every((path) => path.startsWith('/v1/vfs/2/')))
    assert.ok(changes.slice(firstNfv).every((path) => path.startsWith('/v1/nfvs/1/')))
    const api = /^spp-ctl is running on (\S+);/m.exec(stdout)![1]!
    type Port = { port: string }
    type Topology = {
      nfvs: Record<string, { status: string; ports: string[]; patches: object[] }>
      vfs: Record<string, { components: { name?: string; rx_port?: Port[]; tx_port?: Port[] }[] }>
    }
    const topology = (await (await fetch(`${api}/v1/topology`)).json()) as Topology
    const fwd1 = topology.vfs['2']!.components.find((c) => c.name === 'fwd1')
    assert.equal(
      [fwd1?.rx_port?.map((p) => p.port), fwd1?.tx_port?.map((p) => p.port)],
      [['ring:0'], ['phy:1']],
    )
    const nfv = topology.nfvs['1']!
    assert.equal([nfv.status, nfv.patches], ['Running', [{ src: 'phy:0', dst: 'ring:0' }]])
    assert.ok(nfv.ports.includes('ring:0'))
  } finally {
    child.kill('SIGKILL')
  }
})

test('packets arrive on the demo’s phy:0: the primary counts them once nfv 1 forwards them', async () => {
  const child = spawn(process.execPath, [join(dist, 'demo.js'), ...DEMO], { stdio: 'pipe' })
  try {
    child.stderr.resume() // its log lines
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    while (!stdout.includes(BANNER_END)) await once(child.stdout, 'data')
    assert.match(stdout, '(phy:0 receives 20000 packets a second')
    const api = /^spp-ctl is running on (\S+);/m.exec(stdout)![1]!
    const put = (path: string, body: object) =>
      fetch(api + path, { method: 'PUT', body: JSON.stringify(body) }).then((r) => r.status)
    const rx = async () => {
      const status = (await (await fetch(`${api}/v1/primary/status`)).json()) as {
        phy_ports: { rx: number }[]
      }
      return status.phy_ports[0]!.rx
    }
    assert.is(await put('/v1/nfvs/1/patches', { src: 'phy:0', dst: 'phy:1' }), 204)
    assert.is(await rx(), 0, 'nothing polls phy:0 yet')
    assert.is(await put('/v1/nfvs/1/forward', { action: 'start' }), 204)
    // Reads are shared for a while (--status-max-age): read until a fresh one has counted some.
    const deadline = Date.now() + 20_000 // fails the test, never times it
    let counted = 0
    while (counted === 0 && Date.now() < deadline) counted = await rx()
    assert.ok(counted > 0, 'phy:0 rx grows once nfv 1 forwards')
  } finally {
    child.kill('SIGKILL')
  }
})

test('the bundle alone (no node_modules) writes pretty logs when asked, to the last line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-dist-'))
  const args = ['-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', '0', '--state-dir', 'none']
  args.push('--log-format', 'pretty')
  try {
    cpSync(dist, dir, { recursive: true })
    const child = spawn(process.execPath, [join(dir, 'cli.js'), ...args], { stdio: 'pipe' })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      const listening = stderr.includes('controller listening')
      stderr += chunk.toString()
      if (!listening && stderr.includes('controller listening')) child.kill('SIGTERM') // once
    })
    const [code] = (await once(child, 'exit')) as [number | null]
    assert.is(code, 0, stderr)
    assert.match(stderr, /^\[[\d:.]+\] INFO: controller listening \{"host":"127\.0\.0\.1",/)
    assert.match(stderr, /\] INFO: controller stopped\n$/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
