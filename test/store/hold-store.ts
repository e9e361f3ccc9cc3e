// Test helper, run as its own process: opens the store of a state directory and holds it until
// killed or until its stdin ends; a refusal is one line on stderr and exit 1, as the CLI does.
import { openStore } from '../../src/store/store.ts'

let store
try {
  store = openStore(process.argv[2]!)
} catch (error) {
  process.stderr.write(`spp-ctl: ${(error as Error).message}\n`)
  process.exit(1)
}
process.stdout.write('open\n')
process.stdin.resume()
process.stdin.on('end', () => void store.close())
