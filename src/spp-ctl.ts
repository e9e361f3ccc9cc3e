// spp-ctl: the controller (src/cli/daemon.ts), or one of its subcommands (src/cli/).
import { readFileSync } from 'node:fs'
import { CLIENT_OPTIONS, commandOf, usageText } from './cli/args.ts'
import { runDaemon } from './cli/daemon.ts'

// The client commands' --url, --token-file and --quiet may come before their name too.
const { command, args, hoisted } = commandOf(process.argv.slice(2), CLIENT_OPTIONS)
if (command === 'topology')
  process.exit(await (await import('./cli/topology/topology.ts')).runTopology(args))
if (command === 'journal') process.exit(await (await import('./cli/journal.ts')).runJournal(args))
if (hoisted.length > 0) {
  const option = hoisted[0]!.replace(/=.*/s, '')
  const reason = `${option} is an option of the client commands: spp-ctl ${option} ... topology|journal ...`
  process.stderr.write(usageText('spp-ctl', reason))
  process.exit(2)
}
if (command === 'fleet')
  process.exit(await (await import('./cli/fleet/fleet.ts')).runFleet(process.argv.slice(3)))
if (command === 'auth') process.exit((await import('./cli/auth.ts')).runAuth(process.argv.slice(3)))

// package.json is one level up from both src/ (tsx) and dist/ (the build).
const version = () =>
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Package).version
type Package = { version: string }
await runDaemon(version)
