// The fleet link's state as the API tells it: from the link's reachability, one `fleet.link` event
// per change, down for a new reason included.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fleetLinkStatus } from '../../src/fleet/link-status.ts'
import { createReachability } from '../../src/fleet/reachability.ts'
import { EventHub } from '../../src/observe/event-hub.ts'
import { captureLogs } from '../helpers/log-capture.ts'

const URL = 'https://10.0.0.1:2379'
const REFUSED = `etcd at ${URL} refused user a writing /spp-ctl/hosts/a/observed: etcdserver: permission denied`

test('each change of the link is one fleet.link event, with its line; down stays down since it went down', () => {
  const hub = new EventHub()
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const status = fleetLinkStatus({ host: 'a', endpoints: [URL] }, hub, () => new Date(clock))
  const { log, lines } = captureLogs()
  const reach = createReachability(log, [URL], (up, why) => status.set(up, why))
  assert.equal(status.current(), {
    host: 'a',
    endpoints: [URL],
    state: 'connecting',
    since: '2026-01-01T00:00:00.000Z',
  })
  clock += 1000
  reach.ok()
  clock += 1000
  reach.failed({ kind: 'unreachable', reason: 'connect ECONNREFUSED 10.0.0.1:2379' })
  reach.failed({ kind: 'unreachable', reason: 'deadline exceeded' }) // still unreachable: no news
  clock += 1000
  reach.failed({ kind: 'refused', reason: 'etcdserver: permission denied', line: REFUSED }, true)
  reach.failed({ kind: 'refused', reason: 'etcdserver: permission denied', line: REFUSED })
  clock += 1000
  reach.ok(true)
  const told = hub.since(0).events.map(({ type, data }) => ({ type, ...data }))
  const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`
  assert.equal(told, [
    { type: 'fleet.link', host: 'a', endpoints: [URL], state: 'up', since: at(1) },
    {
      ...{ type: 'fleet.link', host: 'a', endpoints: [URL], state: 'unreachable', since: at(2) },
      line: `cannot reach etcd at ${URL}: connect ECONNREFUSED 10.0.0.1:2379`,
    },
    {
      ...{ type: 'fleet.link', host: 'a', endpoints: [URL], state: 'refused', since: at(2) },
      line: REFUSED,
    },
    { type: 'fleet.link', host: 'a', endpoints: [URL], state: 'up', since: at(4) },
  ])
  // The line the API gives is the line the log gives.
  assert.ok(lines.some((l) => l.msg === REFUSED))
})

test.run()
