// The store as the controller runs it in production: bundled, with plain node, better-sqlite3 (a
// native addon, outside the bundle) from node_modules.
import { execFile } from 'node:child_process'
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withTempDir } from './temp-dir.ts'

const root = new URL('../..', import.meta.url).pathname
const run = promisify(execFile)

// A stand-in for the controller's entry, until one opens the store.
const PROBE = `
import { openStore } from './src/store/store.ts'
const store = openStore(process.argv[2])
store.put({ section: 'vfs', clientId: 2 }, { components: [] })
await store.sync()
console.log(JSON.stringify({ ...store.stats(), remembered: store.remembered() }))
await store.close()
`

test('a bundled store loads better-sqlite3 from node_modules and commits', () =>
  withTempDir(async (dir) => {
    await build({
      stdin: { contents: PROBE, resolveDir: root, loader: 'ts', sourcefile: 'probe.ts' },
      outfile: join(dir, 'probe.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      external: ['better-sqlite3'],
      logLevel: 'warning',
    })
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules')) // as npm installs it
    const { stdout } = await run(process.execPath, [join(dir, 'probe.js'), join(dir, 'state')], {
      env: { PATH: process.env.PATH }, // no NODE_OPTIONS: nothing like tsx is preloaded
    })
    assert.equal(JSON.parse(stdout), {
      commits: 1,
      writes: 2,
      remembered: { nfvs: {}, vfs: { '2': { components: [] } }, mirrors: {} },
    })
  }))

test.run()
