// `spp-ctl topology desired [--forget vf:2]`, `drift` and `restore` as a user runs them: the real
// binary against a controller that remembers.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { buildDist } from '../../helpers/build.ts'
import { withRemembering } from '../../helpers/remember.ts'
import { runCli } from '../../helpers/run-cli.ts'

test.before(buildDist)

const ALL = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
]

test('desired prints the remembered document as YAML; --forget vf:2 forgets vf 2, once', () =>
  withRemembering(ALL, async (h) => {
    const url = ['--url', `http://127.0.0.1:${h.controller.apiPort}`]
    const fwd1 = { name: 'fwd1', core: 2, type: 'forward' }
    assert.is((await h.api('POST', '/v1/vfs/2/components', fwd1)).status, 204)
    assert.is((await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })).status, 204)

    const shown = await runCli(['topology', 'desired', ...url])
    assert.is(shown.code, 0, shown.stderr)
    const remembered = (await h.api('GET', '/v1/topology/desired')).json()
    assert.equal(parse(shown.stdout), remembered)
    assert.match(shown.stdout, /^nfvs:\n {2}"1":\n {4}status: Running\n/)

    const forgot = await runCli(['topology', 'desired', '--forget', 'vf:2', ...url])
    assert.equal([forgot.code, forgot.stdout], [0, 'Forgot vf:2: it will not be restored.\n'])
    const after = (await h.api('GET', '/v1/topology/desired')).json() as { vfs: object }
    assert.equal(after.vfs, {})

    // Forgetting what is not remembered changes nothing and says so: the wanted state holds.
    const again = await runCli(['topology', 'desired', '--forget', 'vf:2', ...url])
    assert.equal(
      [again.code, again.stdout, again.stderr],
      [0, 'vf:2 is not remembered: nothing to forget.\n', `controller ${url[1]} (--url)\n`],
    )
    // The spelling of earlier releases is still read, and answered in the one spelling.
    const old = await runCli(['topology', 'desired', '--forget', 'nfvs/1', ...url])
    assert.equal([old.code, old.stdout], [0, 'Forgot nfv:1: it will not be restored.\n'])
    const bad = await runCli(['topology', 'desired', '--forget', 'vf-2', ...url])
    assert.equal(
      [bad.code, bad.stderr],
      [
        1,
        'spp-ctl topology: --forget takes a process as vf:2, nfv:1, mirror:3 or primary, got "vf-2"\n' +
          "Run 'spp-ctl topology --help' for usage.\n",
      ],
    )
  }))

test('the API forgets by the one spelling too (DELETE /v1/topology/desired/vf:2), errors name it', () =>
  withRemembering(ALL, async (h) => {
    const fwd1 = { name: 'fwd1', core: 2, type: 'forward' }
    assert.is((await h.api('POST', '/v1/vfs/2/components', fwd1)).status, 204)
    assert.is((await h.api('DELETE', '/v1/topology/desired/vf:2')).status, 204)
    const again = await h.api('DELETE', '/v1/topology/desired/vf:2')
    assert.equal([again.status, again.text], [404, 'nothing is remembered for vf:2\n'])
    const old = await h.api('DELETE', '/v1/topology/desired/vfs/2')
    assert.equal([old.status, old.text], [404, 'nothing is remembered for vf:2\n'])
    const singular = await h.api('DELETE', '/v1/topology/desired/vf/2')
    assert.equal([singular.status, singular.text], [404, 'nothing is remembered for vf:2\n'])
    const unknown = await h.api('DELETE', '/v1/topology/desired/vm/2')
    assert.is(unknown.status, 400, unknown.text)
    assert.match(unknown.text, /"vm\/2": expected a process as vf:2/)
    const restore = await h.api('POST', '/v1/topology/restore', { process: 'vf:02' })
    assert.is(restore.status, 400, restore.text)
  }))

test('drift shows what differs from memory; restore PROCESS runs it with the progress display', () =>
  withRemembering(
    ALL,
    async (h) => {
      const url = ['--url', `http://127.0.0.1:${h.controller.apiPort}`]
      const fwd1 = { name: 'fwd1', core: 2, type: 'forward' }
      assert.is((await h.api('POST', '/v1/vfs/2/components', fwd1)).status, 204)
      const inSync = await runCli(['topology', 'drift', '--detailed-exitcode', ...url])
      assert.equal([inSync.code, inSync.stdout], [0, 'vf:2: in sync\n'], inSync.stderr)

      await h.restart(h.sim('vf 2')) // comes back empty; --restore report leaves it so
      await h.events.until((e) => e.type === 'drift.detected', 'drift.detected')
      const drift = await runCli(['topology', 'drift', '--detailed-exitcode', ...url])
      assert.is(drift.code, 2, drift.stderr)
      assert.is(
        drift.stdout,
        [
          'vf:2: 1 step to restore',
          '  1. start fwd1 (forward on core 2)',
          '     POST /v1/vfs/2/components {"name":"fwd1","core":2,"type":"forward"}',
          '',
          'Restore with: spp-ctl topology restore PROCESS (or --all)',
          '',
        ].join('\n'),
      )
      const json = await runCli(['topology', 'drift', '--json', ...url])
      assert.equal(JSON.parse(json.stdout), (await h.api('GET', '/v1/topology/drift')).json())

      const none = await runCli(['topology', 'restore', 'vf:3', ...url])
      assert.equal(
        [none.code, none.stderr],
        [1, `controller ${url[1]} (--url)\nspp-ctl topology: nothing is remembered for vf:3\n`],
      )
      const restored = await runCli(['topology', 'restore', 'vf:2', ...url])
      assert.is(restored.code, 0, restored.stderr)
      assert.match(
        restored.stdout,
        /^\nRestoring 1 step:\n {2}done 1\/1 {2}start fwd1 \(forward on core 2\) {2}\(\d+\.\d s\)\nRestored 1 step in \d+\.\d s\.\n$/,
      )
      assert.ok(h.sim('vf 2').received.some((line) => line.startsWith('component start fwd1')))
      const after = await runCli(['topology', 'restore', '--all', ...url])
      assert.equal(
        [after.code, after.stdout],
        [0, 'Nothing to restore: every remembered process matches.\n'],
      )
      const journal = await runCli(['journal', '--process', 'vf:2', '--json', ...url])
      const last = JSON.parse(journal.stdout.trim().split('\n').at(-1)!) as { by: string }
      assert.match(last.by, /^restore spp-ctl-/)
    },
    { restore: 'report' },
  ))

test.run()
