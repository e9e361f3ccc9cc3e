// Test helper, run as its own process: 200 changes (a configuration and its journal entry each)
// from concurrent writers, each printed once its sync() resolved. The test kills it with SIGKILL.
import { openStore } from '../../src/store/store.ts'

const store = openStore(process.argv[2]!)

/** Change n goes to vf n % 8; the configuration says which change it was. */
async function change(n: number) {
  const clientId = n % 8
  store.put({ section: 'vfs', clientId }, { components: [], change: n })
  store.journal({
    by: 'crash-test',
    requestId: String(n),
    method: 'PUT',
    path: `/v1/vfs/${clientId}`,
    commands: [{ line: `change ${n}`, outcome: 'ok' }],
    status: 204,
    processes: [`vf:${clientId}`],
  })
  await store.sync()
  process.stdout.write(`${n}\n`) // a pipe: written before the next line of this program runs
}

await Promise.all(Array.from({ length: 100 }, (_, n) => change(n)))
// The rest from 8 writers, one change after the other: many commits for the kill to land in.
const writer = async (first: number) => {
  for (let n = first; n < 200; n += 8) await change(n)
}
await Promise.all(Array.from({ length: 8 }, (_, i) => writer(100 + i)))
process.stdout.write('done\n')
setInterval(() => {}, 60_000) // waits to be killed
