// `spp-ctl topology desired [--forget vfs/2]` as a user runs it: the real binary against a
// controller that remembers.
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

test('desired prints the remembered document as YAML; --forget vfs/2 forgets vf 2', () =>
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

    const forgot = await runCli(['topology', 'desired', '--forget', 'vfs/2', ...url])
    assert.equal([forgot.code, forgot.stdout], [0, 'Forgot vfs/2: it will not be restored.\n'])
    const after = (await h.api('GET', '/v1/topology/desired')).json() as { vfs: object }
    assert.equal(after.vfs, {})

    const again = await runCli(['topology', 'desired', '--forget', 'vfs/2', ...url])
    assert.is(again.code, 1)
    assert.match(again.stderr, /^spp-ctl topology: DELETE \/v1\/topology\/desired\/vfs\/2: 404: /)
    const bad = await runCli(['topology', 'desired', '--forget', 'vf:2', ...url])
    assert.equal(
      [bad.code, bad.stderr],
      [1, 'spp-ctl topology: --forget takes vfs/2, nfvs/1 or mirrors/3, got vf:2\n'],
    )
  }))

test.run()
