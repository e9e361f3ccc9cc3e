// Run synchronously by a test (execFileSync) to act between two steps of code it cannot pause:
// `node --import tsx change-and-wait.ts API ETCD KEY REVISION METHOD PATH BODY` sends one REST
// request, then waits until KEY has changed past REVISION in etcd (the controller's write-back).
import { openEtcd } from '../../src/fleet/etcd-client.ts'
import { waitForKey } from './etcd.ts'

const [api, etcd, key, revision, method, path, body] = process.argv.slice(2)
const answer = await fetch(`${api}${path}`, { method, body })
if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`)
const client = await openEtcd([etcd!])
try {
  await waitForKey(client, key!, (e) => e.revision > Number(revision), {
    fromRevision: Number(revision) + 1,
    timeoutMs: 10_000,
  })
} finally {
  client.close()
}
