// What runs at install: every dependency's install script is declared in package.json's
// allowScripts (approved or denied), so `npm ci` is quiet, and the analytics one is denied;
// better-sqlite3's prebuilt binary is used where it can be downloaded, and CI builds it.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const root = new URL('..', import.meta.url).pathname
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  allowScripts?: Record<string, boolean>
  scarfSettings?: { enabled?: boolean }
}

/** `npm install-scripts ls --json`: the installed packages whose install scripts nothing covers. */
const undeclared = async () => {
  const { stdout } = await promisify(execFile)('npm', ['install-scripts', 'ls', '--json'], {
    cwd: root,
  })
  return (JSON.parse(stdout) as { allowScripts: unknown[] }).allowScripts
}

test('every installed install script is approved or denied in allowScripts', async () => {
  assert.equal(await undeclared(), [])
})

test('swagger-ui-dist’s install-time analytics (@scarf/scarf) never runs nor reports', () => {
  assert.is(manifest.allowScripts?.['@scarf/scarf'], false)
  // for an npm that still runs dependency scripts (npm 10, Node 20's): its script then reads this
  assert.is(manifest.scarfSettings?.enabled, false)
})

/** What better-sqlite3's install script (prebuild-install) decides, in this checkout, given `env`. */
const buildsFromSource = async (env: Record<string, string>) => {
  const require = createRequire(import.meta.url)
  const sqlite = dirname(require.resolve('better-sqlite3/package.json'))
  const rc = createRequire(join(sqlite, 'package.json')).resolve('prebuild-install/rc.js')
  const home = mkdtempSync(join(tmpdir(), 'spp-ctl-home-')) // none of the developer's rc files
  try {
    // prebuild-install's settings for the package, read from its directory up (a
    // .prebuild-installrc in the checkout counts), the environment and the home directory.
    const script = `console.log(JSON.stringify(require(${JSON.stringify(rc)})(require('./package.json'))))`
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
      cwd: sqlite,
      env: { PATH: process.env.PATH, HOME: home, ...env },
    })
    return (JSON.parse(stdout) as { buildFromSource: unknown }).buildFromSource
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

test('a user’s npm install downloads better-sqlite3’s prebuilt binary; CI’s builds it', async () => {
  assert.is(await buildsFromSource({}), false, 'nothing in the checkout forces a build')
  const ci = readFileSync(join(root, '.ci/run'), 'utf8')
  const [, name, value] = /^(npm_config_\w+)=(\S+) npm ci /m.exec(ci) ?? []
  assert.ok(name && value, 'the npm ci of .ci/run sets a variable for the install scripts')
  assert.is(await buildsFromSource({ [name]: value }), true, `${name}=${value}`)
})

test.run()
