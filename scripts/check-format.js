// prettier --check over the files git tracks, not every file of the checkout: a document of the
// user's own (the quick start's chain.yaml) is not the project's, and must not fail its checks.
// Outside a git checkout (an unpacked tarball) every file is checked, as `prettier --check .` does.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import process from 'node:process'

const root = join(import.meta.dirname, '..')
const prettier = join(root, 'node_modules', '.bin', 'prettier')

/** The files git tracks (those deleted from the work tree left out), or undefined without git. */
function tracked() {
  try {
    const listed = execFileSync('git', ['ls-files', '-z'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 16 << 20,
    })
    return listed.split('\0').filter((file) => file !== '' && existsSync(join(root, file)))
  } catch {
    return undefined
  }
}

const files = tracked()
// --ignore-unknown: a tracked file prettier has no parser for (a .png) is skipped, as `.` skips it.
const args = files ? ['--check', '--ignore-unknown', ...files] : ['--check', '.']
const { status } = spawnSync(prettier, args, { cwd: root, stdio: 'inherit' })
process.exit(status ?? 1)
