// What the recordings of real SPP show to corrupt or kill a process is refused, named, never sent.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness, type Harness } from '../helpers/harness.ts'

const HOST = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]
/** What a process was sent besides status reads (a read may come first: hazards.ts). */
const changes = (h: Harness, label: string) =>
  commandsOf(h.sim(label)).filter((line) => line !== 'status')

/** Sends a request that must be refused with a 400 whose text (one line, then its end) matches. */
async function refused(h: Harness, method: string, path: string, body: unknown, text: RegExp) {
  const r = await h.api(method, path, body)
  assert.is(r.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${r.status} ${r.text}`)
  assert.match(r.type ?? '', /^text\/plain/)
  assert.ok(r.text.endsWith('\n'), `${JSON.stringify(r.text)} ends its line`)
  assert.match(r.text.slice(0, -1), text)
  return r.text.slice(0, -1)
}

test('an nfv patch naming a port it lacks, and a pipe port, are refused naming the port', () =>
  withHarness(HOST, async (h) => {
    await refused(
      h,
      'PUT',
      '/v1/nfvs/1/patches',
      { src: 'phy:0', dst: 'ring:7' },
      /^invalid key\(dst\): "ring:7" \(not a port of this nfv: its ports are phy:0, phy:1\)$/,
    )
    await refused(h, 'PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'pipe:1' }, /key\(port\)/)
    await refused(h, 'PUT', '/v1/nfvs/1/patches', { src: 'pipe:1', dst: 'phy:0' }, /key\(src\)/)
    assert.equal(changes(h, 'nfv 1'), [])
  }))

test('deleting an nfv port another is patched to is refused until the patches are reset', () =>
  withHarness(HOST, async (h) => {
    for (const [method, path, body] of [
      ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
      ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
    ] as const)
      assert.is((await h.api(method, path, body)).status, 204)
    await refused(
      h,
      'PUT',
      '/v1/nfvs/1/ports',
      { action: 'del', port: 'ring:0' },
      /^invalid key\(port\): "ring:0" \(phy:0 is patched to it: .*reset the patches first\)$/,
    )
    assert.is((await h.api('DELETE', '/v1/nfvs/1/patches')).status, 204)
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/ports', { action: 'del', port: 'ring:0' })).status,
      204,
    )
    assert.equal(changes(h, 'nfv 1'), [
      'add ring:0',
      'patch phy:0 ring:0',
      'patch reset',
      'del ring:0',
    ])
  }))

test('a second vf or mirror component of a name is refused first, naming the component', () =>
  withHarness(HOST, async (h) => {
    const fw1 = { name: 'fw1', core: 2, type: 'forward' }
    assert.is((await h.api('POST', '/v1/vfs/2/components', fw1)).status, 204)
    await refused(
      h,
      'POST',
      '/v1/vfs/2/components',
      { ...fw1, core: 3 },
      /^invalid key\(name\): "fw1" \(this vf already runs a component of that name\)$/,
    )
    const mr1 = { name: 'mr1', core: 2, type: 'mirror' }
    assert.is((await h.api('POST', '/v1/mirrors/3/components', mr1)).status, 204)
    await refused(h, 'POST', '/v1/mirrors/3/components', mr1, /^invalid key\(name\): "mr1"/)
    assert.equal(changes(h, 'vf 2'), ['component start fw1 2 forward'])
    assert.equal(changes(h, 'mirror 3'), ['component start mr1 2 mirror'])
  }))

test("a ring beyond the primary's -n is refused for a vf, a mirror and an nfv: it breaks a vf for good", () =>
  withHarness(HOST, async (h) => {
    await h.api('POST', '/v1/vfs/2/components', { name: 'fw1', core: 2, type: 'forward' })
    await h.api('POST', '/v1/mirrors/3/components', { name: 'mr1', core: 2, type: 'mirror' })
    const beyond =
      /^invalid key\(port\): "ring:4" \(the primary has no ring:4: its rings are ring:0 to ring:3; /
    const attach = { action: 'attach', port: 'ring:4', dir: 'rx' }
    await refused(h, 'PUT', '/v1/vfs/2/components/fw1/ports', attach, beyond)
    await refused(h, 'PUT', '/v1/mirrors/3/components/mr1/ports', attach, beyond)
    await refused(h, 'PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:4' }, beyond)
    assert.is(
      (await h.api('PUT', '/v1/vfs/2/components/fw1/ports', { ...attach, port: 'ring:3' })).status,
      204,
    )
    assert.equal(changes(h, 'vf 2'), ['component start fw1 2 forward', 'port add ring:3 rx fw1'])
    assert.equal(changes(h, 'mirror 3'), ['component start mr1 2 mirror'])
    assert.equal(changes(h, 'nfv 1'), [])
  }))

test('a missing ring is said in one wording by a request and by a plan: the ring, and the rings there are', () =>
  withHarness(HOST, async (h) => {
    const said = 'the primary has no ring:9: its rings are ring:0 to ring:3; '
    await h.api('POST', '/v1/vfs/2/components', { name: 'fw1', core: 2, type: 'forward' })
    const attach = { action: 'attach', port: 'ring:9', dir: 'rx' }
    const rest = await refused(h, 'PUT', '/v1/vfs/2/components/fw1/ports', attach, /ring:9/)
    assert.ok(rest.includes(said), rest)
    const document = {
      vfs: {
        '2': {
          components: [{ name: 'fw1', core: 2, type: 'forward', rx_port: [{ port: 'ring:9' }] }],
        },
      },
    }
    const planned = await h.api('POST', '/v1/topology/plan', document)
    assert.equal(
      [planned.status, planned.text],
      [422, `refused key(vfs.2.components[0].rx_port[0].port): ${said}attaching it breaks vf 2\n`],
    )
    assert.equal(changes(h, 'vf 2'), ['component start fw1 2 forward'])
  }))

test('a phy port is patched, never added or deleted: an nfv or a primary refused it so', () =>
  withHarness(
    [{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }],
    async (h) => {
      const fixed =
        /^invalid key\(port\): "phy:0" \(phy ports are always there: they are patched \(PUT \.\.\.\/patches\), never added or deleted\)$/
      for (const action of ['add', 'del'])
        for (const path of ['/v1/nfvs/1/ports', '/v1/primary/ports'])
          await refused(h, 'PUT', path, { action, port: 'phy:0' }, fixed)
      assert.equal(changes(h, 'nfv 1'), [])
      assert.equal(changes(h, 'primary'), [])
    },
    { sim: { era: '2020' } },
  ))

test('a 2020 primary is not asked for a ring it lacks, nor a port or pipe it lists already', () =>
  withHarness(
    [{ kind: 'primary' }],
    async (h) => {
      const add = (port: string, rings = {}) =>
        h.api('PUT', '/v1/primary/ports', { action: 'add', port, ...rings })
      await refused(
        h,
        'PUT',
        '/v1/primary/ports',
        { action: 'add', port: 'ring:4' },
        /"ring:4" \(the primary has no ring:4: its rings are ring:0 to ring:3/,
      )
      // A pipe's rings are checked as any ring: the primary would fail the add, yet list the pipe.
      for (const [rings, key, ring] of [
        [{ rx: 'ring:8', tx: 'ring:1' }, 'rx', 'ring:8'],
        [{ rx: 'ring:0', tx: 'ring:9' }, 'tx', 'ring:9'],
      ] as const)
        await refused(
          h,
          'PUT',
          '/v1/primary/ports',
          { action: 'add', port: 'pipe:1', ...rings },
          new RegExp(
            `^invalid key\\(${key}\\): "${ring}" \\(the primary has no ${ring}: its rings are ring:0 to ring:3; the primary would fail to add pipe:1 and keep it listed\\)$`,
          ),
        )
      assert.is((await add('ring:3')).status, 204)
      const pipe = { rx: 'ring:0', tx: 'ring:1' }
      assert.is((await add('pipe:0', pipe)).status, 204)
      const twice =
        /\(the primary has it already: a second add lists it twice, and a del then frees another port\)$/
      await refused(h, 'PUT', '/v1/primary/ports', { action: 'add', port: 'ring:3' }, twice)
      await refused(
        h,
        'PUT',
        '/v1/primary/ports',
        { action: 'add', port: 'pipe:0', ...pipe },
        twice,
      )
      assert.equal(changes(h, 'primary'), ['add ring:3', 'add pipe:0 ring:0 ring:1'])
    },
    { sim: { era: '2020' } },
  ))

test.run()
