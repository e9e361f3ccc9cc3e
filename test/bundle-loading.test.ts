// What a plain start of the built controller loads (issue 21, idle RSS): dist/cli.js and the chunks
// it imports statically hold none of what only a flag or a subcommand needs; import() loads that.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { buildDist } from './helpers/build.ts'

const dist = new URL('../dist/', import.meta.url).pathname

test.before(buildDist)

/** The modules of a bundle file, as esbuild names them in a `// path` line before each. */
const modulesOf = (text: string) =>
  [...text.matchAll(/^\/\/ ((?:src|node_modules)\/\S+)$/gm)].map((m) => m[1]!)

/** The modules of `entry` and of every chunk it imports statically (not through import()). */
function loadedAtStart(entry: string): Set<string> {
  const files = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    const text = readFileSync(join(dist, file), 'utf8')
    for (const m of text.matchAll(/^import\s(?:[^;]*?\sfrom\s)?"\.\/([^"]+)";/gms)) visit(m[1]!)
  }
  visit(entry)
  return new Set([...files].flatMap((file) => modulesOf(readFileSync(join(dist, file), 'utf8'))))
}

/** Only a flag or a subcommand needs these: --log-format pretty, --auth-file, --etcd, `spp-ctl topology`... */
const LAZY = [
  'node_modules/pino-pretty/',
  'node_modules/yaml/',
  'node_modules/cockatiel/',
  'node_modules/prom-client/lib/cluster.js',
  'node_modules/@opentelemetry/api/',
  'src/cli/topology/topology.ts',
  'src/cli/fleet/fleet.ts',
  'src/cli/journal.ts',
  'src/cli/auth.ts',
]

test('a plain start loads none of what only a flag or a subcommand needs', () => {
  const atStart = loadedAtStart('cli.js')
  assert.ok(atStart.has('src/controller/controller.ts'), 'the controller itself is loaded at start')
  const loaded = LAZY.filter((lazy) => [...atStart].some((m) => m.startsWith(lazy)))
  assert.equal(loaded, [], 'loaded at start')
})

test('what a start leaves out is in dist/ all the same, for import() to load', () => {
  const all = readdirSync(dist)
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) => modulesOf(readFileSync(join(dist, f), 'utf8')))
  // prom-client's cluster aggregator and @opentelemetry/api are left out of the bundle altogether.
  for (const lazy of LAZY.slice(0, 3).concat(LAZY.slice(5)))
    assert.ok(
      all.some((m) => m.startsWith(lazy)),
      `${lazy} is in dist/`,
    )
})

test.run()
