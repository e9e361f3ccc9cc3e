import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness } from '../helpers/harness.ts'

const MIRROR = [{ kind: 'mirror' as const, clientId: 3 }]
const NONE = { operation: 'none', id: 0, pcp: 0 }

test("mirror: components and ports, exact commands, status with each port's vlan as a real one has", () =>
  withHarness(MIRROR, async (h) => {
    const steps: [string, string, unknown, string][] = [
      [
        'POST',
        '/v1/mirrors/3/components',
        { name: 'mr1', core: 2, type: 'mirror' },
        'component start mr1 2 mirror',
      ],
      [
        'PUT',
        '/v1/mirrors/3/components/mr1/ports',
        { action: 'attach', port: 'ring:0', dir: 'rx' },
        'port add ring:0 rx mr1',
      ],
      [
        'PUT',
        '/v1/mirrors/3/components/mr1/ports',
        { action: 'attach', port: 'ring:1', dir: 'tx', vlan: { operation: 'add', id: 5, pcp: 1 } },
        'port add ring:1 tx mr1',
      ],
      [
        'PUT',
        '/v1/mirrors/3/components/mr1/ports',
        { action: 'attach', port: 'ring:2', dir: 'tx', vlan: 'not looked at' },
        'port add ring:2 tx mr1',
      ],
    ]
    for (const [method, path, body, command] of steps) {
      const r = await h.api(method, path, body)
      assert.is(r.status, 204, `${command}: ${r.text}`)
      assert.is(commandsOf(h.sim('mirror 3')).at(-1), command)
    }
    const r = await h.api('GET', '/v1/mirrors/3')
    assert.is(r.status, 200)
    assert.equal(r.json(), {
      'client-id': 3,
      ports: ['phy:0', 'phy:1', 'ring:0', 'ring:1', 'ring:2'],
      components: [
        {
          core: 2,
          name: 'mr1',
          type: 'mirror',
          // A real 18.11 spp_mirror reports a vlan per port (test/fixtures/real-spp).
          rx_port: [{ port: 'ring:0', vlan: NONE }],
          tx_port: [
            { port: 'ring:1', vlan: NONE },
            { port: 'ring:2', vlan: NONE },
          ],
        },
        { core: 3, type: 'unuse' },
        { core: 4, type: 'unuse' },
        { core: 5, type: 'unuse' },
      ],
    })
  }))

test('mirror: detach and stop; a third tx port breaks the mirror shape and is rejected', () =>
  withHarness(MIRROR, async (h) => {
    await h.api('POST', '/v1/mirrors/3/components', { name: 'mr1', core: 2, type: 'mirror' })
    for (const port of ['ring:1', 'ring:2'])
      await h.api('PUT', '/v1/mirrors/3/components/mr1/ports', {
        action: 'attach',
        port,
        dir: 'tx',
      })
    const third = await h.api('PUT', '/v1/mirrors/3/components/mr1/ports', {
      action: 'attach',
      port: 'ring:3',
      dir: 'tx',
    })
    assert.is(third.status, 400)
    assert.is(third.text, 'command error: error occur\n')
    assert.is(
      (
        await h.api('PUT', '/v1/mirrors/3/components/mr1/ports', {
          action: 'detach',
          port: 'ring:3',
          dir: 'tx',
        })
      ).status,
      204,
    )
    assert.is((await h.api('DELETE', '/v1/mirrors/3/components/mr1')).status, 204)
    assert.equal(commandsOf(h.sim('mirror 3')).slice(-2), [
      'port del ring:3 tx mr1',
      'component stop mr1',
    ])
    const status = (await h.api('GET', '/v1/mirrors/3')).json() as { components: unknown[] }
    assert.equal(status.components[0], { core: 2, type: 'unuse' })
  }))

test('mirrors have no classifier table route', () =>
  withHarness(MIRROR, async (h) => {
    const r = await h.api('PUT', '/v1/mirrors/3/classifier_table', {
      action: 'add',
      type: 'mac',
      mac_address: 'default',
      port: 'ring:0',
    })
    assert.is(r.status, 404)
    assert.equal(commandsOf(h.sim('mirror 3')), [])
  }))

test.run()
