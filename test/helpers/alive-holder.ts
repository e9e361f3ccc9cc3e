// A process holding a fleet link (alive lease and all) until it is killed: `node --import tsx
// alive-holder.ts ETCD_URL HOST`. Prints `up` once its alive key is in etcd.
import { pino } from 'pino'
import { createFleetLink } from '../../src/fleet/link.ts'

const [endpoint, host] = process.argv.slice(2) as [string, string]
const link = await createFleetLink({
  endpoints: [endpoint],
  host,
  url: 'http://127.0.0.1:1/',
  version: 'test',
  log: pino({ level: 'silent' }),
  onDesired: () => undefined,
  onUp: (up) => up && process.stdout.write('up\n'),
})
process.on('SIGTERM', () => void link.close().then(() => process.exit(0)))
