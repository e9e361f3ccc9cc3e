// `spp-ctl topology get|plan|apply` as a user runs it: the real binary against simulated processes.
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parse, stringify } from 'yaml'
import { configurationOf } from '../../../src/topology/configuration.ts'
import type { TopologyDocument } from '../../../src/topology/read-topology.ts'
import { buildDist } from '../../helpers/build.ts'
import { withHarness, type Harness } from '../../helpers/harness.ts'

const CLI = new URL('../../../bin/spp-ctl.js', import.meta.url).pathname
const DEMO = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]

test.before(buildDist)

/** Runs `spp-ctl topology ...args` to its end; stdout is a pipe, so progress is plain lines. */
function run(h: Harness, args: string[], stdin?: string) {
  const child = spawn(
    process.execPath,
    [CLI, 'topology', ...args, '--url', `http://127.0.0.1:${h.controller.apiPort}`],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  )
  child.stdin.end(stdin ?? '')
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  )
}

test('get, edit, plan, apply with progress, plan again: the whole loop a user runs', () =>
  withHarness(DEMO, async (h) => {
    const dir = await mkdtemp(join(tmpdir(), 'spp-topology-'))
    try {
      const got = await run(h, ['get'])
      assert.is(got.code, 0, got.stderr)
      const doc = parse(got.stdout) as { nfvs: Record<string, Record<string, unknown>> } & {
        vfs: Record<string, { components: unknown[] }>
      }
      assert.equal(doc.nfvs['1']!.status, 'Idle')
      doc.nfvs['1']!.ports = ['phy:0', 'phy:1', 'ring:0']
      doc.nfvs['1']!.patches = [{ src: 'phy:0', dst: 'ring:0' }]
      doc.vfs['2']!.components = [
        { name: 'fwd1', core: 2, type: 'forward', rx_port: [{ port: 'ring:0' }] },
      ]
      const file = join(dir, 'chain.yaml')
      await writeFile(file, stringify(doc))

      const planned = await run(h, ['plan', '-f', file, '--detailed-exitcode'])
      assert.is(planned.code, 2, planned.stderr)
      assert.match(
        planned.stdout,
        /vf 2\n {4}\+ component fwd1 \(forward on core 2\)\n {4}\+ fwd1 rx ring:0/,
      )
      assert.match(planned.stdout, /nfv 1\n {4}\+ port ring:0\n {4}\+ patch phy:0 -> ring:0/)
      assert.match(planned.stdout, /Steps \(4\):\n {2}1\. start fwd1/)
      assert.match(
        planned.stdout,
        /Summary: 1 component\.start, 1 port\.attach, 1 port\.add, 1 patch\.set/,
      )
      assert.is((await run(h, ['plan', '-f', file])).code, 0)

      const applied = await run(h, ['apply', '-f', file])
      assert.is(applied.code, 0, applied.stderr)
      // The vf's steps and the nfv's run side by side: their lines come in either order.
      assert.match(applied.stdout, /Applying 4 steps:\n/)
      assert.match(applied.stdout, /\n {2}done 1\/4 {2}start fwd1/)
      assert.match(applied.stdout, /done 4\/4 {2}patch phy:0 -> ring:0 on nfv 1 {2}\(\d+\.\d s\)\n/)
      assert.match(applied.stdout, /Applied 4 steps in \d+\.\d s\.\n$/)

      const json = await run(h, ['get', '--json'])
      const again = await run(h, ['plan', '-f', '-', '--detailed-exitcode'], json.stdout)
      assert.is(again.code, 0, again.stderr)
      assert.is(again.stdout, 'No changes: the live topology already matches.\n')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }))

/** Every key of a document, at any depth. */
const keysOf = (value: unknown): string[] =>
  typeof value !== 'object' || value === null
    ? []
    : Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])

for (const era of ['18.11', '2020'] as const)
  test(`get exports the ${era} configuration, which plans back to no change; --with-status all`, () =>
    withHarness(
      [...DEMO, ...(era === '2020' ? [{ kind: 'pcap' as const, clientId: 4 }] : [])],
      async (h) => {
        const attach = { action: 'attach', port: 'ring:0', dir: 'rx' }
        // A 2020 primary's forwarder is configuration too: a ring of its own, a patch, Running.
        const primary =
          era === '2020'
            ? ([
                ['PUT', '/v1/primary/ports', { action: 'add', port: 'ring:1' }],
                ['PUT', '/v1/primary/patches', { src: 'phy:1', dst: 'ring:1' }],
                ['PUT', '/v1/primary/forward', { action: 'start' }],
              ] as const)
            : []
        for (const [method, path, body] of [
          ...primary,
          ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
          ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
          ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
          ['PUT', '/v1/vfs/2/components/fwd1/ports', attach],
          ['POST', '/v1/mirrors/3/components', { name: 'mr1', core: 3, type: 'mirror' }],
          ['PUT', '/v1/mirrors/3/components/mr1/ports', attach],
        ] as const) {
          const r = await h.api(method, path, body)
          assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
        }

        const got = await run(h, ['get', '--json'])
        assert.is(got.code, 0, got.stderr)
        const doc = JSON.parse(got.stdout) as Record<string, Record<string, object>>
        const kinds = ['nfvs', 'vfs', 'mirrors']
        assert.equal(Object.keys(doc), era === '2020' ? ['primary', ...kinds] : kinds, 'no pcaps')
        if (era === '2020')
          assert.equal(doc.primary, {
            forwarder: {
              status: 'Running',
              ports: ['phy:0', 'phy:1', 'ring:1'],
              patches: [{ src: 'phy:1', dst: 'ring:1' }],
            },
            pipes: [],
          })
        const keys = new Set(keysOf(doc))
        for (const status of ['rx', 'tx', 'tx_drop', 'client-id', 'master-lcore', 'lcores'])
          assert.not.ok(keys.has(status), `${status} is not configuration`)
        assert.equal(doc.nfvs!['1'], {
          status: 'Idle',
          ports: ['phy:0', 'phy:1', 'ring:0'],
          patches: [{ src: 'phy:0', dst: 'ring:0' }],
        })
        assert.equal(
          (doc.vfs!['2'] as { components: { name: string }[] }).components.map((c) => c.name),
          ['fwd1'],
          'no unused cores',
        )
        assert.equal(
          (doc.mirrors!['3'] as { components: { name: string }[] }).components.map((c) => c.name),
          ['mr1'],
        )
        const yaml = await run(h, ['get'])
        assert.equal(parse(yaml.stdout), doc, 'YAML by default, the same document')

        const again = await run(h, ['plan', '-f', '-', '--detailed-exitcode'], got.stdout)
        assert.is(again.code, 0, again.stdout + again.stderr)
        // The 2020 primary forwards into ring:1, which nothing reads: said, still no change.
        const warned =
          era === '2020'
            ? 'Warnings:\n  ring:1: primary patch phy:1 -> ring:1 sends into it and nothing reads it: what is sent there is dropped\n'
            : ''
        assert.is(again.stdout, `No changes: the live topology already matches.\n${warned}`)

        const all = await run(h, ['get', '--json', '--with-status'])
        const full = JSON.parse(all.stdout) as { primary: { phy_ports: { rx: number }[] } }
        assert.type(full.primary.phy_ports[0]!.rx, 'number')
        assert.equal(Object.keys(full).includes('pcaps'), era === '2020')
      },
      { sim: { era, pollMs: 0 } },
    ))

test('plan shows which step waits for which, and warns of a ring nothing reads; exit codes as before', () =>
  withHarness(DEMO, async (h) => {
    const chain = stringify({
      nfvs: {
        '1': {
          status: 'Running',
          ports: ['phy:0', 'phy:1', 'ring:0'],
          patches: [{ src: 'phy:0', dst: 'ring:0' }],
        },
      },
      vfs: {
        '2': {
          components: [
            {
              name: 'fwd1',
              core: 2,
              type: 'forward',
              rx_port: [{ port: 'ring:0' }],
              tx_port: [{ port: 'phy:1' }],
            },
          ],
        },
      },
    })
    const planned = await run(h, ['plan', '-f', '-', '--detailed-exitcode'], chain)
    assert.is(planned.code, 2, planned.stderr)
    assert.match(
      planned.stdout,
      / {2}6\. start forwarding on nfv 1: Running is wanted\n {5}PUT \/v1\/nfvs\/1\/forward \{"action":"start"\}\n {5}after 1, 3: waits for the readers of ring:0 \(vf:2 fwd1\) to be attached and started\n/,
    )
    assert.not.match(planned.stdout, /Warnings/)
    // Without the vf, the nfv sends into a ring nothing reads: planned all the same, and said.
    const alone = stringify({ nfvs: (parse(chain) as { nfvs: object }).nfvs })
    const warned = await run(h, ['plan', '-f', '-', '--detailed-exitcode'], alone)
    assert.is(warned.code, 2, warned.stderr)
    assert.match(
      warned.stdout,
      /Summary: 1 port\.add, 1 patch\.set, 1 forward\.start\n\nWarnings:\n {2}ring:0: nfv:1 patch phy:0 -> ring:0 sends into it and nothing reads it: what is sent there is dropped\n$/,
    )
    assert.is((await run(h, ['plan', '-f', '-'], alone)).code, 0)
    const applied = await run(h, ['apply', '-f', '-'], alone)
    assert.is(applied.code, 0, applied.stderr)
    assert.match(applied.stdout, /Applied 3 steps in/)
  }))

test('a refused document and a failed step exit 1 with the reason on stderr', () =>
  withHarness(DEMO, async (h) => {
    const refused = await run(
      h,
      ['apply', '-f', '-'],
      'vfs:\n  "2":\n    components: [{ name: a, core: 1, type: forward }]\n',
    )
    assert.is(refused.code, 1)
    assert.match(
      refused.stderr,
      /422: refused key\(vfs\.2\.components\[0\]\.core\): core 1 is not a worker/,
    )
    // A classifier entry the vf does not show makes the planned add fail at the process.
    await h.api('POST', '/v1/vfs/2/components', { name: 'f', core: 3, type: 'forward' })
    await h.api('PUT', '/v1/vfs/2/components/f/ports', {
      action: 'attach',
      port: 'ring:1',
      dir: 'rx',
    })
    const hidden = () =>
      h.api('PUT', '/v1/vfs/2/classifier_table', {
        action: 'add',
        type: 'mac',
        mac_address: 'default',
        port: 'ring:1',
      })
    await hidden()
    const desired = JSON.stringify({
      vfs: {
        '2': {
          components: [
            { name: 'c', core: 2, type: 'classifier_mac', tx_port: [{ port: 'ring:1' }] },
          ],
          classifier_table: [{ type: 'mac', value: 'default', port: 'ring:1' }],
        },
      },
    })
    const configuration = async () =>
      configurationOf((await h.api('GET', '/v1/topology')).json() as TopologyDocument)
    const before = await configuration()
    // All or nothing: the four steps done are undone, in reverse.
    const failed = await run(h, ['apply', '-f', '-'], desired)
    assert.is(failed.code, 1)
    assert.match(failed.stdout, /done 4\/5 {2}attach ring:1 tx to c/)
    assert.match(failed.stdout, /FAILED 5\/5 {2}add classifier entry default -> ring:1/)
    assert.match(
      failed.stderr,
      /Failed at step 5\/5: .*\n {2}PUT \/v1\/vfs\/2\/classifier_table .*\n {2}-> 400: command error: bad value\(port\)\n4 steps were done; undone by \d+ steps: the processes are as they were\.\n$/,
    )
    assert.equal(await configuration(), before)
    // --keep-partial: as before the undo existed. (The undo removed the entry once c showed it.)
    await hidden()
    const kept = await run(h, ['apply', '-f', '-', '--keep-partial'], desired)
    assert.is(kept.code, 1)
    assert.match(kept.stderr, /4 steps were done; nothing was rolled back\.\n$/)
    assert.not.equal(await configuration(), before)
    const usage = await run(h, ['plan'])
    assert.is(usage.code, 1)
    assert.match(usage.stderr, /plan needs -f FILE/)
  }))

test.run()
