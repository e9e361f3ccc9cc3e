// The project's own checks, run by npm test so that CI fails on a type error, a lint finding or
// unformatted code, and also when one of the tools cannot run at all.
import { execFile } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const root = new URL('..', import.meta.url).pathname
const bin = (name: string) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname

type Outcome = { code: number | null; output: string }
/** Runs a tool of the project; resolves with its exit status and everything it printed. */
const run = (name: string, args: string[]) =>
  new Promise<Outcome>((resolve) => {
    const [file, first] = name.endsWith('.js') ? [process.execPath, [name]] : [bin(name), []]
    execFile(
      file,
      [...first, ...args],
      { cwd: root, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        resolve({ code, output: `${stdout}${stderr}` })
      },
    )
  })

const passes = async (name: string, args: string[]) => {
  const { code, output } = await run(name, args)
  assert.is(code, 0, `${name} ${args.join(' ')} exited ${code}:\n${output}`)
  return output
}

test('the project type-checks (npm run check)', async () => {
  assert.is(await passes('tsc', ['--noEmit']), '')
})

test('the type-aware linter finds nothing (eslint .)', async () => {
  const output = await passes('eslint', ['--max-warnings', '0', '.'])
  assert.not.match(output, /problem/)
})

test('every file git tracks is formatted (scripts/check-format.js: prettier --check)', async () => {
  await passes('scripts/check-format.js', [])
})

test("a file of the user's own in the checkout (the quick start's chain.yaml) fails no check", async () => {
  // Untracked, and not as prettier would write it ('1', not "1"): a document `topology get` wrote.
  const file = join(root, `untracked-${process.pid}.yaml`)
  writeFileSync(file, 'nfvs:\n  "1":\n    status: Running\n')
  try {
    const alone = await run('prettier', ['--check', file])
    assert.is.not(alone.code, 0, 'prettier would reformat it')
    await passes('scripts/check-format.js', [])
  } finally {
    rmSync(file, { force: true })
  }
})

test('the layers import downward only, with no cycle (depcruise, .dependency-cruiser.cjs)', async () => {
  const output = await passes('depcruise', ['src', '--config', '.dependency-cruiser.cjs'])
  assert.match(output, /no dependency violations found/)
})

test('a linter that cannot run fails the check', async () => {
  const { code } = await run('eslint', ['--config', 'no-such-config.js', '.'])
  assert.is.not(code, 0)
})

test.run()
