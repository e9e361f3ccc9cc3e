// What npm ships: the packed files alone run the command with plain node (no sources, no tsx), and
// the systemd unit in contrib/ starts that command.
import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { buildDist } from './helpers/build.ts'

const run = promisify(execFile)
const root = new URL('..', import.meta.url).pathname
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string
  bin: Record<string, string>
  dependencies: Record<string, string>
}

test.before(buildDist)

/** The files `npm pack` would put in the tarball. */
const packed = async () => {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
  })
  const [{ files }] = JSON.parse(stdout) as [{ files: { path: string }[] }]
  return files.map((f) => f.path)
}

test('npm pack ships the built commands and the unit, and no sources, tests or tooling', async () => {
  const files = await packed()
  for (const path of ['bin/spp-ctl.js', 'bin/spp-sim.js', 'dist/cli.js', 'dist/sim.js'])
    assert.ok(files.includes(path), `${path} is shipped`)
  assert.ok(files.includes('contrib/spp-ctl.service'))
  for (const path of [
    'contrib/prometheus/spp-ctl.rules.yml',
    'contrib/prometheus/spp-ctl.rules.test.yml',
    'contrib/grafana/spp-ctl.json',
  ])
    assert.ok(files.includes(path), `${path} is shipped`)
  for (const dir of ['src/', 'test/', 'bench/', '.ci/', 'scripts/', 'node_modules/'])
    assert.not.ok(
      files.some((f) => f.startsWith(dir)),
      `nothing under ${dir}: ${files.join(' ')}`,
    )
  assert.not.ok('tsx' in pkg.dependencies, 'tsx is for development only')
})

test('the packed files alone run both commands with plain node', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-pack-'))
  try {
    for (const path of await packed()) cpSync(join(root, path), join(dir, path))
    const version = await run(process.execPath, [join(dir, pkg.bin['spp-ctl']!), '--version'], {
      env: { PATH: process.env.PATH }, // no NODE_OPTIONS: nothing like tsx is preloaded
    })
    assert.is(version.stdout, `${pkg.version}\n`)
    const help = await run(process.execPath, [join(dir, pkg.bin['spp-sim']!), '--help'])
    assert.match(help.stdout, /Usage: spp-sim/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the systemd unit starts the installed command and does not restart it after bad flags', () => {
  const unit = readFileSync(join(root, 'contrib/spp-ctl.service'), 'utf8')
  assert.match(unit, /^ExecStart=\/\S+\/spp-ctl( |$)/m)
  assert.match(unit, /^Restart=on-failure$/m)
  assert.match(unit, /^RestartPreventExitStatus=2$/m, 'exit 2 is what bad flags give (cli.test)')
  assert.match(unit, /^StateDirectory=spp-ctl$/m, 'the default --state-dir under systemd')
})

test.run()
