// Builds dist/: each command bundled into plain-JavaScript ESM that node runs as it is.
// A bundle starts faster and idles smaller than tsc's one-file-per-module emit (measured in the
// commit that added this), since node resolves and reads one file instead of a few hundred.
// Split (issue 21): what a plain start does not use (the subcommands, pino-pretty, the fleet's
// etcd code) goes into chunks that import() loads when asked for, so that the controller neither
// parses nor keeps their source (idle RSS 1.6 MiB lower once settled). Chunks sit next to the
// entries, flat in dist/, so that every `new URL('./...', import.meta.url)` finds what it did.
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

const root = join(import.meta.dirname, '..')
rmSync(join(root, 'dist'), { recursive: true, force: true })
const common = {
  absWorkingDir: root,
  // Loaded from node_modules at run time: better-sqlite3 is a native module, and etcd3 reads its
  // .proto files from its own directory (the fleet code imports it only when used, so a command
  // without --etcd never needs it). undici (the client commands' unix:PATH URLs) is a megabyte of
  // bundle that only those URLs load: node_modules holds it.
  external: ['better-sqlite3', 'etcd3', 'undici'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // CommonJS dependencies (pino, prom-client) call require() for node's built-in modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
}
await build({
  ...common,
  entryPoints: { cli: 'src/spp-ctl.ts', sim: 'src/spp-sim.ts', demo: 'src/demo.ts' },
  splitting: true,
  chunkNames: '[name]-[hash]',
})
// esbuild escapes what is not ASCII in strings, but not in the comments it keeps (a `§`, an xstate
// `’`): one such character makes V8 hold a whole chunk's source as a two-byte string, twice its
// size of heap for as long as the controller runs. Escaped there too, it is a one-byte string.
for (const file of readdirSync(join(root, 'dist'))) {
  if (!file.endsWith('.js')) continue
  const path = join(root, 'dist', file)
  const text = readFileSync(path, 'utf8')
  const unit = (u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`
  const ascii = text.replace(/[\u0080-\u{10ffff}]/gu, (c) => c.split('').map(unit).join(''))
  if (ascii !== text) writeFileSync(path, ascii)
}
// The page's own files are served as they are: they go next to the bundle (dist/ui).
cpSync(join(root, 'src/ui'), join(root, 'dist/ui'), { recursive: true })
