// Where the state directory is: the flag, then systemd's variable, then XDG's, then the home's.
import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ensureStateDir, resolveStateDir, type StateDirEnv } from '../../src/store/state-dir.ts'
import { StoreError } from '../../src/store/store-error.ts'
import { withTempDir } from './temp-dir.ts'

const HOME = '/home/op'
const rows: [string, string | undefined, StateDirEnv, string | undefined][] = [
  ['none remembers nothing', 'none', { STATE_DIRECTORY: '/var/lib/spp-ctl' }, undefined],
  ['the flag wins over the environment', '/srv/state', { STATE_DIRECTORY: '/a' }, '/srv/state'],
  ['a relative flag is kept as given', 'state', {}, 'state'],
  [
    'systemd sets STATE_DIRECTORY',
    undefined,
    { STATE_DIRECTORY: '/var/lib/spp-ctl' },
    '/var/lib/spp-ctl',
  ],
  ['of several systemd directories, the first', undefined, { STATE_DIRECTORY: '/a:/b' }, '/a'],
  ['an empty entry in the list is skipped', undefined, { STATE_DIRECTORY: ':/b' }, '/b'],
  [
    'systemd wins over XDG',
    undefined,
    { STATE_DIRECTORY: '/var/lib/spp-ctl', XDG_STATE_HOME: '/x' },
    '/var/lib/spp-ctl',
  ],
  [
    'an empty STATE_DIRECTORY is not set',
    undefined,
    { STATE_DIRECTORY: '', XDG_STATE_HOME: '/x' },
    '/x/spp-ctl',
  ],
  ['XDG_STATE_HOME', undefined, { XDG_STATE_HOME: '/x/state' }, '/x/state/spp-ctl'],
  [
    'a relative XDG_STATE_HOME is ignored',
    undefined,
    { XDG_STATE_HOME: 'rel' },
    `${HOME}/.local/state/spp-ctl`,
  ],
  [
    'an empty XDG_STATE_HOME is ignored',
    undefined,
    { XDG_STATE_HOME: '' },
    `${HOME}/.local/state/spp-ctl`,
  ],
  ['else the home directory', undefined, {}, `${HOME}/.local/state/spp-ctl`],
]

for (const [name, flag, env, expected] of rows)
  test(`state directory: ${name}`, () => {
    assert.is(resolveStateDir(flag, env, HOME), expected)
  })

test('an empty --state-dir is refused, naming the flag', () => {
  assert.throws(
    () => resolveStateDir('', {}, HOME),
    (error: unknown) => error instanceof StoreError && /--state-dir/.test(error.message),
  )
})

test('the directory is created with its parents, readable by its owner only', () =>
  withTempDir((root) => {
    const dir = join(root, 'state', 'spp-ctl')
    ensureStateDir(dir)
    assert.is(statSync(dir).mode & 0o777, 0o700)
    ensureStateDir(dir) // an existing directory is fine
    assert.ok(statSync(dir).isDirectory())
  }))

test('a directory that cannot be created is a STATE_DIR_UNUSABLE error naming it', () =>
  withTempDir((root) => {
    const file = join(root, 'file')
    writeFileSync(file, '')
    assert.throws(
      () => ensureStateDir(join(file, 'sub')),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === 'STATE_DIR_UNUSABLE' &&
        error.message.includes(join(file, 'sub')),
    )
  }))

test.run()
