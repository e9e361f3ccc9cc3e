// A test whose tool is missing is skipped on a developer's machine and fails under CI.
import { execFile } from 'node:child_process'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { underCi } from './needs.ts'

const PROBE = new URL('./needs-probe.ts', import.meta.url).pathname
const NOWHERE = '/nonexistent/spp-ctl-test'

/** Runs the probe's two tests with both tools at a path where there is none. */
function probe(ci: string | undefined) {
  const { CI: _, FORCE_COLOR: __, ...inherited } = process.env
  const env = {
    ...inherited,
    NO_COLOR: '1',
    CHROMIUM: `${NOWHERE}/chromium`,
    ETCD: `${NOWHERE}/etcd`,
  }
  return new Promise<{ code: number; output: string }>((resolve) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', PROBE],
      { env: ci === undefined ? env : { ...env, CI: ci } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    ),
  )
}

test('under CI=true, a test whose tool is missing fails and says which tool, where', async () => {
  const { code, output } = await probe('true')
  assert.is(code, 1, output)
  assert.match(output, /Total:\s+2\b/)
  assert.match(output, /Passed:\s+0\b/)
  assert.match(output, /Skipped:\s+0\b/)
  assert.match(output, `no Chromium at ${NOWHERE}/chromium`)
  assert.match(output, `no etcd at ${NOWHERE}/etcd`)
})

test("on a developer's machine (no CI), it is skipped and says why", async () => {
  const { code, output } = await probe(undefined)
  assert.is(code, 0, output)
  assert.match(output, /Skipped:\s+2\b/)
  assert.match(output, `skipped "a test that needs Chromium": no Chromium at ${NOWHERE}/chromium`)
  assert.match(output, `skipped "a test that needs etcd": no etcd at ${NOWHERE}/etcd`)
})

test('CI is on when set to anything but empty, 0 or false', () => {
  const on = (CI: string | undefined) => underCi(CI === undefined ? {} : { CI })
  assert.equal([undefined, '', '0', 'false', 'FALSE', 'true', '1', 'yes'].map(on), [
    false,
    false,
    false,
    false,
    false,
    true,
    true,
    true,
  ])
})

test.run()
