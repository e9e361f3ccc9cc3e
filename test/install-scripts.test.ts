// What runs at install: every dependency's install script is declared in package.json's
// allowScripts (approved or denied), so `npm ci` is quiet, and the analytics one is denied.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
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

test.run()
