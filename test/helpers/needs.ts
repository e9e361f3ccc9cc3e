// Tests that need a tool of the machine (Chromium, etcd): on a developer's machine without it they
// are reported as skipped, with why; under CI (`CI=true`) such a test fails, with why: CI has to
// install the tool, and a suite that skips what it was meant to prove must not pass.
import type { Test } from 'uvu'

/** Whether this run is CI's (CI, GitHub's Actions and most others set `CI=true`). */
export const underCi = (env: NodeJS.ProcessEnv = process.env) =>
  env.CI !== undefined && !['', '0', 'false'].includes(env.CI.toLowerCase())

/**
 * Runs `body` as the test `name`. When `missing`, the reason, is given: a test that fails with it
 * under CI, and elsewhere the test reported skipped, the reason printed.
 */
export function testNeeding(
  suite: Test,
  name: string,
  missing: string | undefined,
  body: () => Promise<void>,
) {
  if (!missing) suite(name, body)
  else if (underCi())
    suite(name, () => {
      throw new Error(`${missing}: under CI (CI=${process.env.CI}) a missing tool is a failure`)
    })
  else {
    console.log(`skipped "${name}": ${missing}`)
    suite.skip(name, body)
  }
}
