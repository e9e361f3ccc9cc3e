// The controller's fleet flags: --etcd, --host-name, --etcd-prefix, checked before anything starts.
import { spawnSync } from 'node:child_process'
import { hostname } from 'node:os'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseFleetFlags } from '../../src/fleet/flags.ts'

const CLI = new URL('../../src/spp-ctl.ts', import.meta.url).pathname

test('--etcd takes a list of URLs; the host name defaults to the machine, the prefix to /spp-ctl/', () => {
  assert.equal(parseFleetFlags('http://10.0.0.1:2379, http://10.0.0.2:2379', 'compute-1'), {
    endpoints: ['http://10.0.0.1:2379', 'http://10.0.0.2:2379'],
    host: 'compute-1',
    prefix: '/spp-ctl/',
  })
  const defaults = parseFleetFlags('http://127.0.0.1:2379')
  assert.is(defaults.host, hostname())
  assert.is(parseFleetFlags('http://127.0.0.1:2379', 'a', '/lab/').prefix, '/lab/')
})

test('a host name that is not one key segment, a prefix without /, a bad URL: refused, named', () => {
  assert.throws(
    () => parseFleetFlags('http://127.0.0.1:2379', 'a/b'),
    /--host-name: expected a host name/,
  )
  assert.throws(
    () => parseFleetFlags('http://127.0.0.1:2379', 'a', 'lab'),
    /--etcd-prefix must start with \//,
  )
  assert.throws(() => parseFleetFlags('127.0.0.1:2379', 'a'), /--etcd expects URLs/)
})

test('spp-ctl: a bad fleet flag exits 2 with the reason, before listening', () => {
  const run = (...args: string[]) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', CLI, '-a', '0', '-p', '0', '-s', '0', ...args],
      {
        encoding: 'utf8',
      },
    )
  const bad = run('--etcd', 'http://127.0.0.1:1', '--host-name', 'no/slash')
  assert.is(bad.status, 2)
  assert.match(bad.stderr, /^spp-ctl: --host-name: expected a host name/)
  const alone = run('--host-name', 'a')
  assert.is(alone.status, 2)
  assert.match(alone.stderr, /^spp-ctl: --host-name and --etcd-prefix need --etcd/)
})

test.run()
