// --allow-peers on the process ports: an outsider is closed before its handshake, logged and counted.
import { once } from 'node:events'
import { connect } from 'node:net'
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import {
  defaultAllowedPeers,
  LOOPBACK,
  parseAllowedPeers,
  peerFilter,
} from '../../src/auth/allow-peers.ts'
import { withHarness } from '../helpers/harness.ts'
import { captureLogs } from '../helpers/log-capture.ts'

test('the flag reads networks, addresses and any; anything else is refused with the reason', () => {
  assert.is(parseAllowedPeers('any'), 'any')
  assert.equal(parseAllowedPeers('10.0.0.0/8, 192.168.1.5,fd00::/64'), [
    '10.0.0.0/8',
    '192.168.1.5',
    'fd00::/64',
  ])
  for (const [text, why] of [
    ['10.0.0.0/33', /prefix of 10\.0\.0\.0\/33 must be 0 to 32/],
    ['::1/129', /must be 0 to 128/],
    ['10.0.0.0/x', /must be 0 to 32/],
    ['host.example', /not an address or a CIDR network/],
    ['1.2.3.4/8/9', /not an address/],
    ['', /not an address/],
  ] as const)
    assert.throws(() => parseAllowedPeers(text), why, text)
})

const eth = (address: string, cidr: string): NetworkInterfaceInfo => ({
  address,
  cidr,
  netmask: '255.255.255.0',
  family: 'IPv4',
  mac: '02:00:00:00:00:01',
  internal: false,
})
const interfaces = {
  eth0: [eth('192.0.2.2', '192.0.2.2/24')],
  eth1: [eth('10.1.2.3', '10.1.2.3/16')],
}

test("the default is loopback plus the bind address's own network (every one's for 0.0.0.0)", () => {
  assert.equal(defaultAllowedPeers('127.0.0.1', interfaces), LOOPBACK)
  assert.equal(defaultAllowedPeers('192.0.2.2', interfaces), [...LOOPBACK, '192.0.2.2/24'])
  assert.equal(defaultAllowedPeers('0.0.0.0', interfaces), [
    ...LOOPBACK,
    '192.0.2.2/24',
    '10.1.2.3/16',
  ])
  const allowed = peerFilter(defaultAllowedPeers('192.0.2.2', interfaces))
  for (const [address, ok] of [
    ['192.0.2.200', true],
    ['192.0.3.1', false],
    ['127.0.0.9', true],
    ['::1', true],
    ['::ffff:192.0.2.9', true],
    ['10.1.2.4', false],
    [undefined, false],
  ] as const)
    assert.is(allowed(address), ok, String(address))
})

test('a peer outside --allow-peers is closed before the handshake, logged once and counted', async () => {
  const { log, lines } = captureLogs()
  await withHarness(
    [],
    async (h) => {
      const outsiders = [h.controller.secondaryPort, h.controller.primaryPort].map((port) => {
        const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' })
        const received: Buffer[] = []
        socket.on('data', (chunk: Buffer) => received.push(chunk))
        socket.on('error', () => {})
        return { socket, received, closed: once(socket, 'close') }
      })
      await Promise.all(outsiders.map((o) => o.closed))
      for (const { received } of outsiders) assert.equal(received, [], 'no _get_client_id sent')
      // An insider still registers.
      await h.connect([{ kind: 'nfv', clientId: 1 }])
      assert.equal((await h.api('GET', '/v1/processes')).json(), [{ type: 'nfv', 'client-id': 1 }])
      const metrics = (await h.api('GET', '/metrics')).text
      for (const port of ['primary', 'secondary'])
        assert.match(
          metrics,
          new RegExp(`spp_connections_dropped_total\\{listener="${port}",reason="peer"\\} 1`),
        )
      const refused = lines.filter((l) => /peer not in --allow-peers/.test(l.msg))
      assert.is(refused.length, 1, 'one line for the burst')
      assert.match(String(refused[0]!.peer), /^127\.0\.0\.2:\d+$/)
      assert.is(refused[0]!.level, 40)
      assert.not.ok(
        lines.some((l) => l.msg === 'connection accepted' && /^127\.0\.0\.2/.test(String(l.peer))),
      )
    },
    { allowPeers: ['127.0.0.1/32'], log },
  )
})

// An address of this machine other than loopback, when it has one.
const external = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && !entry.internal && entry.family === 'IPv4')

if (external)
  test('bound to an address other than loopback without --auth-file, one warn line says the API is open', async () => {
    const { log, lines } = captureLogs()
    await withHarness(
      [],
      () => {
        const warned = lines.filter((l) => /REST API is open to anyone/.test(l.msg))
        assert.is(warned.length, 1)
        assert.is(warned[0]!.level, 40)
        const listening = lines.find((l) => l.msg === 'controller listening')
        assert.equal(listening?.allowPeers, [...LOOPBACK, external.cidr!])
        return Promise.resolve()
      },
      { host: external.address, log },
    )
    const { log: quiet, lines: none } = captureLogs()
    await withHarness([], async () => {}, { log: quiet })
    assert.not.ok(
      none.some((l) => /REST API is open/.test(l.msg)),
      'on loopback it is not said',
    )
  })

test.run()
