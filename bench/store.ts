// The store's group commit under load: changes/s, commits/s, main-thread time and memory, with 1
// and 64 concurrent writers, for the store as shipped (its fsync off the event loop) and for
// commits with synchronous=FULL, the fsync inside the commit (the alternative). Each run is a
// fresh plain-node process of a bundle, as the controller runs from dist/. Not part of `npm test`.
// Usage: npm run bench:store -- [--seconds 5]
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } })
const root = new URL('..', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-store-bench-'))
try {
  await build({
    absWorkingDir: root,
    entryPoints: { load: 'bench/lib/store-load.ts' },
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: ['better-sqlite3'],
    logLevel: 'warning',
  })
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  // Designs alternate, so that a change in the disk's speed during the run hits both alike.
  for (const writers of ['1', '64'])
    for (const design of ['store', 'full']) {
      const args = ['--design', design, '--writers', writers, '--seconds', values.seconds]
      const line = execFileSync(process.execPath, [join(dir, 'load.js'), ...args], {
        encoding: 'utf8',
      })
      process.stdout.write(line)
    }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
