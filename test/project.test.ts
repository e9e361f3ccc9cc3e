import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const run = promisify(execFile)
const bin = (name: string) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname

// npm test is what CI runs: type errors and lint findings fail it too.
test('the project type-checks (npm run check)', async () => {
  const result = await run(bin('tsc'), ['--noEmit'], {
    cwd: new URL('..', import.meta.url).pathname,
  }).catch((error: { stdout: string }) => error)
  assert.is(result.stdout, '')
})

test('the linter finds nothing (npm run lint)', async () => {
  const result = await run(bin('eslint'), ['.'], {
    cwd: new URL('..', import.meta.url).pathname,
  }).catch((error: { stdout: string }) => error)
  assert.is(result.stdout, '')
})

test.run()
