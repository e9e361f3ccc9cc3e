// spp-ctl: the controller (src/cli/daemon.ts), or one of its subcommands (src/cli/).
import { readFileSync } from 'node:fs'
import { runDaemon } from './cli/daemon.ts'

const command = process.argv[2]
if (command === 'topology')
  process.exit(
    await (await import('./cli/topology/topology.ts')).runTopology(process.argv.slice(3)),
  )
if (command === 'fleet')
  process.exit(await (await import('./cli/fleet/fleet.ts')).runFleet(process.argv.slice(3)))
if (command === 'journal')
  process.exit(await (await import('./cli/journal.ts')).runJournal(process.argv.slice(3)))
if (command === 'auth') process.exit((await import('./cli/auth.ts')).runAuth(process.argv.slice(3)))

// package.json is one level up from both src/ (tsx) and dist/ (the build).
const version = () =>
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Package).version
type Package = { version: string }
await runDaemon(version)
