// `spp-ctl topology history [REV] [--diff]` and `rollback --to REV` as a user runs them: the built
// binary against a controller that remembers; the question on a terminal, in-process.
import { Readable } from 'node:stream'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { parseDuration } from '../../../src/cli/topology/history.ts'
import { runTopology } from '../../../src/cli/topology/topology.ts'
import { buildDist } from '../../helpers/build.ts'
import { withRemembering, type Remembering } from '../../helpers/remember.ts'
import { runCli } from '../../helpers/run-cli.ts'
import { CHAIN, PRIMARY_NFV_VF } from '../../helpers/chain.ts'

test.before(buildDist)

const url = (h: Remembering) => ['--url', `http://127.0.0.1:${h.controller.apiPort}`]

/** Revisions 1 and 2 (one REST change per process), 3 (an apply of CHAIN). */
async function threeRevisions(h: Remembering) {
  assert.is((await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })).status, 204)
  const fwd = { name: 'fwd9', core: 4, type: 'forward' }
  assert.is((await h.api('POST', '/v1/vfs/2/components', fwd)).status, 204)
  assert.is((await h.api('POST', '/v1/topology/apply', CHAIN)).status, 200)
}

test('--confirm-within takes 90s, 5m, 1h30m, or a number alone as seconds', () => {
  const CASES: [string, number][] = [
    ['300', 300],
    ['90s', 90],
    ['5m', 300],
    ['1h30m', 5400],
  ]
  for (const [text, seconds] of CASES) assert.is(parseDuration(text), seconds, text)
  for (const text of ['', '5x', '1.5m', '-3', '5m 3s'])
    assert.throws(() => parseDuration(text), /--confirm-within takes/, text)
})

test('history is a table, newest first; history REV the document; --diff what going back changes', () =>
  withRemembering(PRIMARY_NFV_VF, async (h) => {
    const empty = await runCli(['topology', 'history', ...url(h)])
    assert.equal(
      [empty.code, empty.stdout],
      [0, 'No revisions yet: nothing was remembered since.\n'],
    )
    await threeRevisions(h)
    const table = await runCli(['topology', 'history', ...url(h)])
    assert.is(table.code, 0, table.stderr)
    const lines = table.stdout.trimEnd().split('\n')
    assert.match(lines[0]!, /^REV +TIME +BY +WHAT +SUMMARY$/)
    assert.match(
      lines[1]!,
      /^3 +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ +anonymous \S+ +apply +1 component\.stop, 1 forward\.stop, 1 component\.start, 1 port\.add, 1 patch\.set, 1 forward\.start$/,
    )
    assert.match(lines[2]!, /^2 .* change +1 component\.start$/)
    assert.match(lines[3]!, /^1 .* change +1 forward\.start$/)
    assert.is(lines.length, 4)
    const limited = await runCli(['topology', 'history', '--limit', '1', '--json', ...url(h)])
    assert.equal(
      (JSON.parse(limited.stdout) as { rev: number }[]).map((r) => r.rev),
      [3],
    )

    const shown = await runCli(['topology', 'history', '2', ...url(h)])
    assert.is(shown.code, 0, shown.stderr)
    assert.equal(parse(shown.stdout), (await h.api('GET', '/v1/topology/history/2')).json())
    const diff = await runCli(['topology', 'history', '2', '--diff', ...url(h)])
    assert.is(diff.code, 0, diff.stderr)
    assert.match(diff.stdout, /^From the live configuration to revision 2:\n/)
    assert.match(diff.stdout, /\n {2}vf 2\n {4}- component fwd1 \(forward on core 2\)\n/)
    assert.match(diff.stdout, /\+ component fwd9 \(forward on core 4\)/)
    assert.match(diff.stdout, /\n {2}nfv 1\n {4}- port ring:0\n {4}- patch phy:0 -> ring:0\n/)
    const same = await runCli(['topology', 'history', '3', '--diff', ...url(h)])
    assert.is(same.stdout, 'The live configuration matches revision 3.\n')
    const missing = await runCli(['topology', 'history', '9', ...url(h)])
    assert.is(missing.code, 1)
    assert.match(missing.stderr, /GET \/v1\/topology\/history\/9: 404: no revision 9 is kept/)
  }))

test('rollback --to REV shows the plan, applies it with progress, and is a revision of its own', () =>
  withRemembering(PRIMARY_NFV_VF, async (h) => {
    await threeRevisions(h)
    const at2 = (await h.api('GET', '/v1/topology/history/2')).json()
    const back = await runCli(['topology', 'rollback', '--to', '2', ...url(h)])
    assert.is(back.code, 0, back.stderr)
    assert.match(back.stdout, /^Rolling back to revision 2:\nChanges:\n/)
    assert.match(back.stdout, /Steps \(\d+\):\n {2}1\. /)
    assert.match(back.stdout, /\nApplying \d+ steps:\n/)
    assert.match(back.stdout, /Applied \d+ steps in \d+\.\d s\.\n$/)
    assert.equal((await h.api('GET', '/v1/topology/desired')).json(), at2)
    const table = await runCli(['topology', 'history', '--limit', '1', ...url(h)])
    assert.match(table.stdout.split('\n')[1]!, /^4 .* rollback to 2 /)
    const again = await runCli(['topology', 'rollback', '--to', '2', ...url(h)])
    assert.equal(
      [again.code, again.stdout],
      [0, 'Rolling back to revision 2:\nNo changes: the live topology already matches.\n'],
    )
    const usage = await runCli(['topology', 'rollback', ...url(h)])
    assert.equal(
      [usage.code, usage.stderr],
      [
        1,
        "spp-ctl topology: rollback needs --to REV (a number)\nRun 'spp-ctl topology --help' for usage.\n",
      ],
    )
  }))

/** A terminal: stdout and stdin are TTYs, stdin holds `typed`. */
function terminal(typed: string) {
  let out = ''
  const stdin = Object.assign(Readable.from([typed]), { isTTY: true })
  return {
    io: {
      stdout: { isTTY: true, columns: 100, write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (out += t) },
      stdin,
    },
    out: () => out,
  }
}

test('on a terminal rollback asks first: only yes goes on; --yes does not ask', () =>
  withRemembering(PRIMARY_NFV_VF, async (h) => {
    await threeRevisions(h)
    const applied = (await h.api('GET', '/v1/topology/desired')).json()
    const no = terminal('y\n')
    assert.is(await runTopology(['rollback', '--to', '2', ...url(h)], no.io), 1)
    assert.match(no.out(), /Roll back to revision 2\? Only yes is taken: Not rolled back\.\n$/)
    assert.equal((await h.api('GET', '/v1/topology/desired')).json(), applied)
    const yes = terminal('yes\n')
    assert.is(await runTopology(['rollback', '--to', '2', ...url(h)], yes.io), 0)
    assert.match(yes.out(), /Only yes is taken: \nApplying/)
    assert.is(await runTopology(['rollback', '--to', '3', '--yes', ...url(h)], terminal('').io), 0)
    assert.equal((await h.api('GET', '/v1/topology/desired')).json(), applied)
  }))

test.run()
